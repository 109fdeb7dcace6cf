import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { TapResult } from '@collie/protocol';
import { writeFileAtomic } from '../config';
import { forgetOldest, retained, type Retention } from '../config/retention';
import { WriteChain } from '../config/write-chain';

/**
 * One phone tap sent to a durable agent. `sent`: written before the call goes out, so after a
 * crash the bridge knows the id may have arrived. `unsure`: the call failed on the way.
 * `final`: the agent's result, returned for the same id from then on without calling again.
 */
export const TapEntry = z.object({
  requestId: z.string(),
  agent: z.string(),
  path: z.string(),
  status: z.enum(['sent', 'unsure', 'final']),
  result: TapResult.nullable(),
  at: z.number(),
});
export type TapEntry = z.infer<typeof TapEntry>;

/** Taps kept, while the bridge runs and across restarts: every one of the last day (as the send receipts), and the newest 5,000 beyond. */
const KEEP = 5000;

/**
 * `<state>/durable/taps.jsonl`: one line per change, flushed to disk before the call to the
 * agent is made. On open the log is folded (a torn last line is dropped) and rewritten.
 */
export class TapJournal {
  private readonly entries = new Map<string, TapEntry>();
  private fh: FileHandle | null = null;
  private readonly writes = new WriteChain();

  private constructor(
    private readonly path: string,
    private readonly retention: Retention<TapEntry>,
  ) {}

  /** Opens `<stateDir>/durable/taps.jsonl`; `keep`: how many taps it holds (KEEP; tests give fewer). */
  static async open(stateDir: string, keep = KEEP): Promise<TapJournal> {
    const dir = join(stateDir, 'durable');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const j = new TapJournal(join(dir, 'taps.jsonl'), { keep, madeAt: (e) => e.at });
    const text = await readFile(j.path, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const e = TapEntry.safeParse(JSON.parse(line));
        if (e.success) j.entries.set(e.data.requestId, e.data);
      } catch {
        // torn by a crash mid-write: that call was not made yet
      }
    }
    const kept = retained([...j.entries.values()], j.retention, Date.now());
    j.entries.clear();
    for (const e of kept) j.entries.set(e.requestId, e);
    await writeFileAtomic(j.path, kept.map((e) => `${JSON.stringify(e)}\n`).join(''), 0o600);
    j.fh = await open(j.path, 'a', 0o600);
    return j;
  }

  /** How many taps it holds now (at most `keep` beyond those of the last day). */
  get size(): number {
    return this.entries.size;
  }

  get(requestId: string): TapEntry | undefined {
    return this.entries.get(requestId);
  }

  /** Record a change; resolves once it is on disk. */
  put(e: TapEntry): Promise<void> {
    this.entries.set(e.requestId, e);
    // As a reopen would: a bridge that runs for weeks holds no more; a tap of the last day stays.
    forgetOldest(this.entries, this.retention, Date.now());
    const line = `${JSON.stringify(e)}\n`;
    return this.writes.run(async () => {
      if (!this.fh) throw new Error('durable: the tap journal is closed');
      await this.fh.write(line);
      await this.fh.datasync();
    });
  }

  async close(): Promise<void> {
    await this.writes.drain();
    const fh = this.fh;
    this.fh = null;
    await fh?.close();
  }
}
