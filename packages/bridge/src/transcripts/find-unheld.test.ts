import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentProcess } from './finding';
import { pickSession, sessionsIn } from './find-unheld';

const proc = (startedAt: number | null): AgentProcess => ({ pid: 1, startTime: null, startedAt, env: {}, cwd: '/w', files: [], fds: [], argv: [] });
const file = (path: string, started: number, modified = started) => ({ path, started, session: path, modified });
const T = 1_800_000_000_000;

describe('the session a pane’s agent surely started', () => {
  it('the newest since the agent started; none yet; none before it', () => {
    const files = [file('old', T - 60_000), file('a1', T + 3_000), file('a2', T + 40_000)];
    expect(pickSession('pi', proc(T), files, [], [])).toMatchObject({ found: true, path: 'a2' });
    expect(pickSession('pi', proc(T + 50_000), files, [], [])).toMatchObject({ found: false, reason: 'No conversation in this pi session yet.' });
    expect(pickSession('pi', proc(null), files, [], [])).toMatchObject({ found: false });
  });

  it('another process of the agent in the folder: sessions begun while both ran are never taken', () => {
    const files = [file('a1', T + 3_000), file('b1', T + 63_000)];
    // The first pane keeps the session only it can have started.
    expect(pickSession('pi', proc(T), files, [proc(T + 60_000)], [])).toMatchObject({ found: true, path: 'a1' });
    // The second pane cannot tell b1 from a session the first started after it.
    expect(pickSession('pi', proc(T + 60_000), files, [proc(T)], [])).toMatchObject({ found: false, reason: expect.stringContaining('cannot tell') });
    // A rival whose start cannot be read could have started anything.
    expect(pickSession('pi', proc(T), files, [proc(null)], [])).toMatchObject({ found: false });
  });

  it('a resumed session (started before the agent): the file written last since the start, while no other process of the agent runs', () => {
    const files = [file('older', T - 90_000, T - 80_000), file('resumed', T - 60_000, T + 5_000)];
    expect(pickSession('pi', proc(T), files, [], [])).toMatchObject({ found: true, path: 'resumed' });
    expect(pickSession('pi', proc(T), files, [proc(T + 1_000)], [])).toMatchObject({ found: false, reason: expect.stringContaining('cannot tell') });
    expect(pickSession('pi', proc(T + 10_000), files, [], [])).toMatchObject({ found: false, reason: 'No conversation in this pi session yet.' });
  });

  it('reads each file’s first line; files of another name, without a header or unreadable are left out', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'collie-unheld-'));
    try {
      await writeFile(join(dir, 'a.jsonl'), `${JSON.stringify({ type: 'session', id: 'a', timestamp: '2026-12-04T12:00:00.000Z' })}\n{}\n`);
      await writeFile(join(dir, 'b.jsonl'), '{"type":"session"}\n');
      await writeFile(join(dir, 'c.jsonl'), 'not json\n');
      await writeFile(join(dir, 'd.txt'), `${JSON.stringify({ type: 'session', id: 'd', timestamp: '2026-12-04T12:00:00.000Z' })}\n`);
      await writeFile(join(dir, 'e.jsonl'), JSON.stringify({ type: 'session', id: 'e', timestamp: '2026-12-04T12:00:00.000Z' }));
      const head = (j: unknown) => {
        const h = j as { id?: unknown; timestamp?: unknown };
        return typeof h.timestamp === 'string' ? { started: Date.parse(h.timestamp), session: typeof h.id === 'string' ? h.id : null } : null;
      };
      const found = await sessionsIn(dir, /\.jsonl$/, head);
      expect(found.map((f) => f.session)).toEqual(['a']);
      expect(await sessionsIn(join(dir, 'missing'), /\.jsonl$/, head)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
