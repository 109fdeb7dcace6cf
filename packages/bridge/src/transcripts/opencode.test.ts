import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { type DurableItem, DurableItem as DurableSchema, WireItem } from '@collie/protocol';
import { makeRedactor } from '../redact';
import { ChatLog } from './chat-log';
import type { Entry } from './entries';
import { OpencodeFollower } from './opencode-db';
import { type PartRow, parseOpencodePart } from './opencode-rows';
import { runAt, sessionsOfRun } from './find-opencode';
import { opencodeSessions } from '../sessions/opencode-store';

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom('<script>alert(1)</script>', '[x](javascript:alert(1))', '\u0000\u001b[31mred\u202e', 'sk-ant-api03-' + 'a'.repeat(40)),
);
const toolState = fc.record(
  {
    status: fc.constantFrom('pending', 'running', 'completed', 'error', 'x'),
    input: fc.oneof(fc.record({ command: hostile, description: hostile }), fc.jsonValue()),
    output: fc.oneof(hostile, fc.jsonValue()),
    error: fc.oneof(hostile, fc.constant('The user rejected permission to use this specific tool call.'), fc.jsonValue()),
    title: hostile,
  },
  { requiredKeys: [] },
);
/** Part `data` shaped like OpenCode's, every field free to be wrong, and types it may add later. */
const partData = fc.oneof(
  fc.record({ type: fc.constant('text'), text: hostile, synthetic: fc.boolean(), ignored: fc.boolean() }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('reasoning'), text: hostile }),
  fc.record({ type: fc.constant('tool'), tool: hostile, callID: fc.string(), state: fc.oneof(toolState, fc.jsonValue()) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('file'), mime: fc.constantFrom('image/png', 'text/plain', ''), filename: hostile, url: fc.string() }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constantFrom('subtask', 'agent', 'compaction', 'retry', 'step-start', 'step-finish', 'snapshot', 'patch', 'a-type-from-later'), name: hostile, description: hostile, agent: hostile, attempt: fc.oneof(fc.integer(), fc.jsonValue()) }, { requiredKeys: ['type'] }),
  fc.jsonValue(),
);
const messageData = fc.oneof(fc.record({ role: fc.constantFrom('user', 'assistant', 'system', 'x') }), fc.jsonValue());
/** A column that is JSON of the shape, JSON cut short, or anything at all. */
const column = <T>(shaped: fc.Arbitrary<T>) => fc.oneof(shaped.map((v) => JSON.stringify(v) ?? ''), shaped.map((v) => (JSON.stringify(v) ?? '').slice(0, 20)), fc.string({ unit: 'binary', maxLength: 100 }));
const row = fc.record({
  id: fc.constantFrom('prt_1', 'prt_2', 'prt_3', 'prt_4'),
  message: fc.string(),
  created: fc.oneof(fc.integer(), fc.constant(NaN)),
  data: column(partData),
  messageData: column(messageData),
});

function check(r: PartRow): Entry[] {
  const entries = parseOpencodePart(r);
  expect(entries.length).toBeLessThanOrEqual(1);
  for (const e of entries) {
    expect(e.kind).toBe('item');
    if (e.kind === 'item') {
      expect(WireItem.safeParse(e.item).success).toBe(true);
      expect(e.key).toBe(r.id);
    }
  }
  return entries;
}

describe('OpenCode part rows (any row: an item or a skip, never a throw)', () => {
  it('any text in either data column', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 100 }), fc.nat(), (data, messageData, rowid) => void check({ rowid, id: 'p', message: 'm', created: 0, data, messageData })), { numRuns: 1000 });
  });

  it('rows of OpenCode’s shape with hostile words, rewritten in place, fold into items the phone may draw, the same read forwards or backwards', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 14 }), (rows) => {
        const log = new ChatLog(makeRedactor(true));
        const all: Entry[] = [];
        rows.forEach((r, i) => {
          // A rewrite of a part keeps its rowid: its first one.
          const first = rows.findIndex((x) => x.id === r.id);
          const entries = check({ ...r, rowid: first + 1 });
          if (i === first) all.push(...entries);
          log.append(entries);
        });
        for (const it of log.items) {
          expect(DurableSchema.safeParse(it).success).toBe(true);
          for (const v of Object.values(it)) if (typeof v === 'string') expect(CONTROL.test(v)).toBe(false);
          // Words are masked (a tool's name is the agent's, not the person's).
          for (const k of ['text', 'input', 'output'] as const) if (k in it) expect(String((it as Record<string, unknown>)[k])).not.toContain('sk-ant-api03-aaaa');
        }
        // One item per part at most, in rowid order.
        const places = log.items.map((it) => Number(it.id));
        expect(places).toEqual([...places].sort((a, b) => a - b));
        expect(new Set(places).size).toBe(places.length);
      }),
      { numRuns: 300 },
    );
  });

  it('the rows the real OpenCode 1.18 wrote: the person’s words, the answers, a bash call with its output', () => {
    const rows = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'opencode-1.18-parts.json'), 'utf8')) as PartRow[];
    const log = new ChatLog((s) => s);
    for (const r of rows) log.append(parseOpencodePart(r));
    expect(log.items.map(words)).toEqual(['user hi opencode', 'markdown Hello from OpenCode.', 'user run the marker', 'markdown I will run a command.', 'tool bash echo collie-marker [done] collie-marker', 'markdown Tool finished: collie-marker']);
  });

  it('a refused call is denied, a failed one failed, one still running running; synthetic texts are OpenCode’s own and skipped', () => {
    const part = (data: unknown, role = 'assistant') => parseOpencodePart({ rowid: 1, id: 'p', message: 'm', created: 0, data: JSON.stringify(data), messageData: JSON.stringify({ role }) });
    const tool = (state: unknown) => part({ type: 'tool', tool: 'bash', callID: 'c', state });
    const status = (e: Entry[]) => (e[0]?.kind === 'item' && e[0].item.kind === 'tool' ? e[0].item.status : null);
    expect(status(tool({ status: 'error', input: { command: 'rm -rf build' }, error: 'The user rejected permission to use this specific tool call.' }))).toBe('denied');
    expect(status(tool({ status: 'error', input: { command: 'false' }, error: 'exit 1' }))).toBe('failed');
    expect(status(tool({ status: 'running', input: { command: 'sleep 9' } }))).toBe('running');
    expect(part({ type: 'text', text: 'Called the Read tool', synthetic: true }, 'user')).toEqual([]);
    expect(part({ type: 'file', mime: 'image/png', url: 'data:image/png;base64,AAAA' }, 'user')).toMatchObject([{ item: { kind: 'notice', text: 'Image attached' } }]);
  });
});

function words(it: DurableItem): string {
  if (it.kind === 'tool') return `tool ${it.name} ${it.input} [${it.status}]${it.output ? ` ${it.output.split('\n')[0]}` : ''}`;
  return `${it.kind} ${'text' in it ? it.text : ''}`;
}

/** OpenCode 1.18's tables, as its migrations make them (the columns the Chat reads and their neighbours). */
const SCHEMA = `
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE INDEX part_session_idx ON part (session_id);
`;

/** A database written the way OpenCode writes it: WAL, a message row, then its parts inserted and updated in place. */
class Writer {
  readonly db: InstanceType<typeof Database>;
  #t = 1_800_000_000_000;
  constructor(readonly path: string) {
    this.db = new Database(path);
    this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec(SCHEMA);
    this.db.prepare(`INSERT INTO session VALUES ('ses_a', 'global', NULL, 's', '/w', 't', '1.18.33', 1, 1), ('ses_b', 'global', NULL, 's', '/w', 't', '1.18.33', 1, 1)`).run();
  }
  message(id: string, role: 'user' | 'assistant', session = 'ses_a'): void {
    this.db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run(id, session, this.#t, this.#t, JSON.stringify({ role, time: { created: this.#t } }));
  }
  part(id: string, message: string, data: unknown, session = 'ses_a'): void {
    const t = ++this.#t;
    this.db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET time_updated = excluded.time_updated, data = excluded.data').run(id, message, session, t, t, JSON.stringify(data));
  }
}

describe('opencodeSessions (the Sessions page) on a real SQLite database', () => {
  it("gives each session the person's first message for search: OpenCode's own texts and rows that hold no JSON passed over", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'collie-oc-'));
    try {
      const w = new Writer(join(dir, 'opencode.db'));
      w.message('msg_0', 'user');
      w.part('prt_0', 'msg_0', { type: 'text', text: 'Called the Read tool', synthetic: true });
      w.db.prepare(`INSERT INTO part VALUES ('prt_bad', 'msg_0', 'ses_a', 1, 1, 'not json')`).run();
      w.part('prt_1', 'msg_0', { type: 'text', text: 'remember   the word\nheron' });
      w.message('msg_1', 'assistant');
      w.part('prt_2', 'msg_1', { type: 'text', text: 'Answer.' });
      w.message('msg_2', 'user');
      w.part('prt_3', 'msg_2', { type: 'text', text: 'a later message' });
      w.message('msg_b', 'assistant', 'ses_b');
      w.part('prt_b', 'msg_b', { type: 'text', text: 'only the agent spoke' }, 'ses_b');
      w.db.close();
      const rows = opencodeSessions(join(dir, 'opencode.db'));
      expect(rows.map((r) => [r.id, r.first])).toEqual([
        ['ses_a', 'remember the word heron'],
        ['ses_b', null],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('OpencodeFollower on a real SQLite database', () => {
  let dir = '';
  let follower: OpencodeFollower | null = null;
  afterEach(async () => {
    follower?.close();
    follower = null;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const recorder = () => {
    const seen: DurableItem[][] = [];
    let wake: (() => void) | null = null;
    return {
      seen,
      on: { items: (c: DurableItem[]) => (seen.push(c), wake?.()), reset: () => undefined },
      async until(check: () => boolean) {
        const end = Date.now() + 20_000;
        while (!check()) {
          if (Date.now() > end) throw new Error(`timed out: ${JSON.stringify(seen)}`);
          await new Promise<void>((r) => ((wake = r), setTimeout(r, 200)));
        }
      },
    };
  };

  it('opens read-only: the session’s parts as items, a part rewritten in place, a new one live, never another session’s, nothing written', async () => {
    dir = await mkdtemp(join(tmpdir(), 'collie-oc-'));
    const path = join(dir, 'opencode.db');
    const w = new Writer(path);
    w.message('msg_1', 'user');
    w.part('prt_1', 'msg_1', { type: 'text', text: 'hi' });
    w.message('msg_2', 'assistant');
    w.part('prt_2', 'msg_2', { type: 'step-start' });
    w.part('prt_3', 'msg_2', { type: 'tool', tool: 'bash', callID: 'c1', state: { status: 'running', input: { command: 'ls' } } });
    w.message('msg_x', 'user', 'ses_b');
    w.part('prt_x', 'msg_x', { type: 'text', text: 'another pane’s words' }, 'ses_b');
    const before = await readFile(path);
    const r = recorder();
    follower = await OpencodeFollower.open(path, 'ses_a', (s) => s, r.on);
    expect(follower.log.items.map(words)).toEqual(['user hi', 'tool bash ls [running]']);
    expect(follower.atStart).toBe(true);

    // The tool settles (its row rewritten), then a reply lands, then the other session writes.
    w.part('prt_3', 'msg_2', { type: 'tool', tool: 'bash', callID: 'c1', state: { status: 'completed', input: { command: 'ls' }, output: 'a.txt\n' } });
    w.part('prt_4', 'msg_2', { type: 'text', text: 'Done.' });
    w.part('prt_y', 'msg_x', { type: 'text', text: 'more of the other pane' }, 'ses_b');
    await r.until(() => follower!.log.items.length === 3);
    expect(follower.log.items.map(words)).toEqual(['user hi', 'tool bash ls [done] a.txt', 'markdown Done.']);
    // Each change once: the settled tool under its first id, and the reply.
    expect(r.seen.flat().map((it) => it.id).sort()).toEqual([follower.log.items[1]!.id, follower.log.items[2]!.id].sort());
    w.db.close();
    // The follower wrote nothing: the database file is as the writer left it before the follower opened it, checkpointed aside.
    expect((await stat(path)).size).toBeGreaterThanOrEqual(before.length);
    const ro = new Database(`file:${path}?mode=ro`);
    expect(ro.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name NOT IN ('session','message','part') AND type = 'table'").get()).toMatchObject({ n: 0 });
    ro.close();
  });

  it('a long session opens from its newest parts; History reads older ones by rowid', async () => {
    dir = await mkdtemp(join(tmpdir(), 'collie-oc-'));
    const path = join(dir, 'opencode.db');
    const w = new Writer(path);
    w.db.exec('BEGIN');
    for (let i = 0; i < 500; i++) {
      w.message(`msg_${i}`, i % 2 === 0 ? 'user' : 'assistant');
      w.part(`prt_${i}`, `msg_${i}`, { type: 'text', text: `words ${i}` });
      w.part(`prt_${i}_s`, `msg_${i}`, { type: 'step-finish' });
    }
    w.db.exec('COMMIT');
    follower = await OpencodeFollower.open(path, 'ses_a', (s) => s, recorder().on);
    expect(follower.atStart).toBe(false);
    expect(follower.log.items.at(-1)).toMatchObject({ kind: 'markdown', text: 'words 499' });
    const first = follower.log.items[0]!;
    expect(follower.log.items.length).toBeLessThan(120);
    await follower.older(Number(first.id), 50);
    const page = follower.log.page(Number(first.id), 50);
    expect(page).toHaveLength(50);
    expect(page.at(-1)).toMatchObject({ text: `words ${Number(/\d+/.exec((first as { text: string }).text)![0]) - 1}` });
    await follower.older(1, 10_000);
    expect(follower.atStart).toBe(true);
    expect(follower.log.items).toHaveLength(500);
    w.db.close();
  });

  it('a missing database is an error, never created', async () => {
    dir = await mkdtemp(join(tmpdir(), 'collie-oc-'));
    await expect(OpencodeFollower.open(join(dir, 'opencode.db'), 'ses_a', (s) => s, recorder().on)).rejects.toThrow();
    await expect(stat(join(dir, 'opencode.db'))).rejects.toThrow();
  });
});

describe('OpenCode’s log: whose line is it', () => {
  it('the line ending at a descriptor’s position names its run; the run’s last session is read back from there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'collie-oc-log-'));
    try {
      const lines = [
        'timestamp=2026-12-04T16:55:00.000Z level=INFO run=aaaa1111 message="creating instance" directory=/w',
        'timestamp=2026-12-04T16:55:01.000Z level=INFO run=bbbb2222 message="creating instance" directory=/w',
        'timestamp=2026-12-04T16:55:02.000Z level=INFO run=aaaa1111 message=created id=ses_A1 slug=x directory=/w',
        'timestamp=2026-12-04T16:55:03.000Z level=INFO run=bbbb2222 message=created id=ses_B1 slug=y directory=/w',
        'timestamp=2026-12-04T16:55:04.000Z level=INFO run=aaaa1111 message=loop session.id=ses_A2 step=0',
        'timestamp=2026-12-04T16:55:05.000Z level=INFO run=bbbb2222 message=loop session.id=ses_B1 step=1',
      ];
      const path = join(dir, 'opencode.log');
      const { writeFile, open } = await import('node:fs/promises');
      await writeFile(path, lines.map((l) => `${l}\n`).join(''));
      const posAfter = (n: number) => lines.slice(0, n).reduce((s, l) => s + Buffer.byteLength(l) + 1, 0);
      const fh = await open(path, 'r');
      try {
        expect(await runAt(fh, posAfter(5))).toBe('aaaa1111');
        expect(await runAt(fh, posAfter(6))).toBe('bbbb2222');
        expect(await runAt(fh, 0)).toBeNull();
        expect(await sessionsOfRun(fh, posAfter(5), 'aaaa1111')).toEqual(['ses_A2', 'ses_A1']);
        expect(await sessionsOfRun(fh, posAfter(3), 'aaaa1111')).toEqual(['ses_A1']);
        expect(await sessionsOfRun(fh, posAfter(6), 'bbbb2222')).toEqual(['ses_B1']);
        expect(await sessionsOfRun(fh, posAfter(2), 'bbbb2222')).toEqual([]);
      } finally {
        await fh.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
