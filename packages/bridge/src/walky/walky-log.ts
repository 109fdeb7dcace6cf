import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { WalkyMessage, WalkyState } from '@collie/protocol';
import { writeFileAtomic } from '../config';
import { WriteChain } from '../config/write-chain';

/** The page's limits on the log. */
export const LOG_KEEP_MS = 7 * 24 * 3600_000;
export const LOG_MAX_LINES = 2000;
export const MAX_UNREAD_PER_PANE = 200;
/** Ids stay in seen.json this long, even after the log drops their line. */
export const SEEN_KEEP_MS = 24 * 3600_000;

const LogLine = z.object({ t: z.literal('msg'), m: WalkyMessage });
/** What seen.json keeps of a message: enough to answer its id again without its body. */
const SeenEntry = z.object({ at: z.number(), state: WalkyState, reason: z.string().nullable(), pane: z.string().nullable() });
export type SeenEntry = z.infer<typeof SeenEntry>;
const seenOf = (m: WalkyMessage): SeenEntry => ({ at: m.at, state: m.state, reason: m.reason, pane: m.to?.pane ?? null });
const SeenFile = z.object({ version: z.literal(1), ids: z.record(z.string(), SeenEntry) });
const RefusalFile = z.object({ version: z.literal(1), reasons: z.record(z.string(), z.object({ count: z.number().int().nonnegative(), last: z.number() })) });
export type Refusals = z.infer<typeof RefusalFile>['reasons'];

async function readJson<T>(path: string, schema: z.ZodType<T>): Promise<T | null> {
  try {
    const parsed = schema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // absent or torn: start empty
  }
}

/**
 * `<state>/walky/`: `log.jsonl` (one line per message change, flushed before the call
 * returns, so a receipt is on disk before anything is typed), `seen.json` (every id of the
 * last day, so one id never types twice, across `kill -9` too), `refusals.json` (counts per
 * reason, no body, no sender). On open and past 2,000 lines the log is folded to one line
 * per message, newest 2,000 of the last 7 days, and rewritten atomically.
 *
 * Bodies are kept masked (`mask`, the bridge's redactor), in memory and on disk: everything read
 * back from here (`inbox`, `status`, the phone, the lead) is masked. The exact text is typed
 * from the message the service holds as it sends, never from here. A log written before
 * masking is masked as it is read, and rewritten so on open.
 */
export class WalkyLog {
  private readonly messages = new Map<string, WalkyMessage>();
  private seen: Record<string, SeenEntry> = {};
  private reasons: Refusals = {};
  private lines = 0;
  private fh: FileHandle | null = null;
  /** Set by `close`: a change that comes later is refused whole, never half written. */
  private closing = false;
  private readonly writes = new WriteChain();

  private constructor(
    readonly dir: string,
    private readonly now: () => number,
    private readonly mask: (body: string) => string,
  ) {}

  static async open(dir: string, now: () => number = Date.now, mask: (body: string) => string = (b) => b): Promise<WalkyLog> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const log = new WalkyLog(dir, now, mask);
    let text = '';
    try {
      text = await readFile(log.path('log.jsonl'), 'utf8');
    } catch {
      // first start
    }
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const parsed = LogLine.safeParse(JSON.parse(line));
        if (parsed.success) log.messages.set(parsed.data.m.id, log.masked(parsed.data.m));
      } catch {
        // a line torn by a crash: the change it held was not acted on
      }
    }
    log.seen = (await readJson(log.path('seen.json'), SeenFile))?.ids ?? {};
    log.reasons = (await readJson(log.path('refusals.json'), RefusalFile))?.reasons ?? {};
    // The log's line is written before seen.json: a crash between the two leaves seen.json a
    // receipt behind, and it answers for the message once the log drops its line. The log wins.
    const behind = [...log.messages.values()].filter((m) => now() - m.at < SEEN_KEEP_MS && log.seenBehind(m));
    for (const m of behind) log.seen[m.id] = seenOf(m);
    if (behind.length > 0) await writeFileAtomic(log.path('seen.json'), JSON.stringify({ version: 1, ids: log.seen }), 0o600);
    await log.compact();
    return log;
  }

  private masked(m: WalkyMessage): WalkyMessage {
    const body = this.mask(m.body);
    return body === m.body ? m : { ...m, body };
  }

  private path(name: string): string {
    return join(this.dir, name);
  }

  get(id: string): WalkyMessage | undefined {
    return this.messages.get(id);
  }

  /** A message id seen within a day, whether or not the log still holds its line. */
  seenEntry(id: string): SeenEntry | undefined {
    const e = this.seen[id];
    return e && this.now() - e.at < SEEN_KEEP_MS ? e : undefined;
  }

  /** Every message held, oldest first. */
  all(): WalkyMessage[] {
    return [...this.messages.values()].sort((a, b) => a.at - b.at);
  }

  unread(paneId: string, token: string): number {
    let n = 0;
    for (const m of this.messages.values()) if (m.to?.paneId === paneId && m.to.token === token && !m.read && m.state !== 'refused') n++;
    return n;
  }

  refusals(): Refusals {
    return structuredClone(this.reasons);
  }

  /** Record a message or a change to it; resolves once the line is on disk. */
  put(exact: WalkyMessage): Promise<void> {
    // A line written while the file closes, its seen.json not: the log would be ahead of it.
    if (this.closing) return Promise.reject(new Error('walky: the log is closed'));
    const m = this.masked(exact);
    this.messages.set(m.id, m);
    const line = `${JSON.stringify({ t: 'msg', m })}\n`;
    return this.writes.run(async () => {
      if (!this.fh) throw new Error('walky: the log is closed');
      await this.fh.write(line);
      await this.fh.datasync();
      this.lines++;
      // Against what seen.json holds, not the record before: a change whose write failed
      // (the log closing, a full disk) is taken by the next line of that message.
      if (this.seenBehind(m)) await this.writeSeen(m);
      if (this.lines > LOG_MAX_LINES) await this.compactNow();
    });
  }

  /** Count one refusal under its reason. */
  refused(reason: string): Promise<void> {
    const cur = this.reasons[reason] ?? { count: 0, last: 0 };
    this.reasons[reason] = { count: cur.count + 1, last: this.now() };
    const snapshot = JSON.stringify({ version: 1, reasons: this.reasons });
    return this.writes.run(() => writeFileAtomic(this.path('refusals.json'), snapshot, 0o600));
  }

  /** A pane lost its token: its inbox goes with it, read or not. */
  dropInbox(paneId: string, token: string): Promise<void> {
    let dropped = false;
    for (const [id, m] of this.messages) {
      if (m.to?.paneId === paneId && m.to.token === token) {
        this.messages.delete(id);
        dropped = true;
      }
    }
    return dropped ? this.compact() : Promise.resolve();
  }

  /** Fold and rewrite the log (serialised with the writes). */
  compact(): Promise<void> {
    return this.writes.run(() => this.compactNow());
  }

  private async compactNow(): Promise<void> {
    const t = this.now();
    const kept = this.all()
      .filter((m) => t - m.at < LOG_KEEP_MS)
      .slice(-LOG_MAX_LINES);
    this.messages.clear();
    for (const m of kept) this.messages.set(m.id, m);
    await this.fh?.close();
    this.fh = null;
    await writeFileAtomic(this.path('log.jsonl'), kept.map((m) => `${JSON.stringify({ t: 'msg', m })}\n`).join(''), 0o600);
    this.lines = kept.length;
    this.fh = await open(this.path('log.jsonl'), 'a', 0o600);
    for (const [id, e] of Object.entries(this.seen)) if (t - e.at >= SEEN_KEEP_MS) delete this.seen[id];
  }

  /** Whether seen.json lacks the message or holds another receipt of it than `m`. */
  private seenBehind(m: WalkyMessage): boolean {
    const e = this.seen[m.id];
    return !e || e.state !== m.state || e.reason !== m.reason || (e.pane === null && m.to !== null);
  }

  /** Held here only once on disk: a write that failed (a full disk) leaves seen.json behind, and the next try sees it so. */
  private async writeSeen(m: WalkyMessage): Promise<void> {
    const ids = { ...this.seen, [m.id]: seenOf(m) };
    await writeFileAtomic(this.path('seen.json'), JSON.stringify({ version: 1, ids }), 0o600);
    this.seen = ids;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.writes.drain();
    await this.fh?.close();
    this.fh = null;
  }
}
