import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { WireResult } from '@collie/protocol';

/** What a call started before a restart and never finished answers: it is not run a second time. */
export const CUT_SHORT: WireResult = {
  outcome: 'refused',
  reason: 'The agent restarted while it did this; it is not done a second time.',
  conversationId: null,
};

/**
 * Request-id deduplication: the first call with an id runs; every later call with that id (also
 * one that arrives while the first still runs) gets the first one's result. The bridge retries
 * with the same id when it is not sure a call arrived, so this is what makes "told once" true.
 *
 * With a `file`, the ids outlive the process: each id is written before its call runs and again
 * with its result, one JSON line each (0600). A process started on the same file answers a retry
 * with the first result, and an id that started but never finished with CUT_SHORT: at most once.
 */
export class Once {
  private readonly results = new Map<string, Promise<WireResult>>();
  /** The finished ones' results, for the file. */
  private readonly done = new Map<string, WireResult>();
  private lines = 0;

  constructor(
    private readonly keep = 10_000,
    private readonly file: string | null = null,
  ) {
    if (file) this.load(file);
  }

  run(requestId: string, act: () => Promise<WireResult>): Promise<WireResult> {
    const have = this.results.get(requestId);
    if (have) return have;
    this.write({ id: requestId });
    const p = act().then((r) => {
      if (this.results.get(requestId) === p) this.done.set(requestId, r);
      this.write({ id: requestId, result: r });
      return r;
    });
    this.remember(requestId, p);
    return p;
  }

  private remember(requestId: string, p: Promise<WireResult>): void {
    this.results.delete(requestId);
    this.results.set(requestId, p);
    if (this.results.size > this.keep) {
      const oldest = this.results.keys().next().value;
      if (oldest !== undefined) {
        this.results.delete(oldest);
        this.done.delete(oldest);
      }
    }
  }

  private load(file: string): void {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    for (const line of text.split('\n')) {
      if (!line) continue;
      let rec: unknown;
      try {
        rec = JSON.parse(line);
      } catch {
        continue; // a line cut short by a crash
      }
      if (typeof rec !== 'object' || rec === null || typeof (rec as { id?: unknown }).id !== 'string') continue;
      const { id, result } = rec as { id: string; result?: unknown };
      const r = result === undefined ? null : WireResult.safeParse(result);
      const first = r?.success ? r.data : CUT_SHORT;
      this.remember(id, Promise.resolve(first));
      this.done.set(id, first);
    }
    this.compact();
  }

  private write(rec: { id: string; result?: WireResult }): void {
    if (!this.file) return;
    appendFileSync(this.file, `${JSON.stringify(rec)}\n`, { mode: 0o600 });
    if (++this.lines > 2 * this.keep + 100) this.compact();
  }

  /** Rewrites the file with the ids still remembered (a finished one with its result). */
  private compact(): void {
    if (!this.file) return;
    const out: string[] = [];
    const pending: string[] = [];
    for (const id of this.results.keys()) {
      const r = this.done.get(id);
      if (r) out.push(JSON.stringify({ id, result: r }));
      else pending.push(JSON.stringify({ id }));
    }
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, [...out, ...pending].map((l) => `${l}\n`).join(''), { mode: 0o600 });
    renameSync(tmp, this.file);
    this.lines = out.length + pending.length;
  }
}
