import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { KeyName, OUTCOME, SendReceipt } from '@collie/protocol';
import { writeFileAtomic } from '../config';

/** One send as stored: its receipt, and what it still has to type while it is not final. */
export const StoredSend = z.object({
  receipt: SendReceipt,
  text: z.string().optional(),
  keys: z.array(KeyName).optional(),
});
export type StoredSend = z.infer<typeof StoredSend>;

/** Receipts kept across restarts (the newest); older request ids may be reused after that. */
export const KEEP = 5000;

/**
 * Receipts on disk: `<state>/sends/log.jsonl`, one JSON line per change, flushed to disk
 * before the call returns. A receipt is written before a key is typed, so after `kill -9`
 * the bridge knows every request id it may have typed and never types one twice. On open
 * the log is folded (a torn last line is dropped) and rewritten compactly.
 */
export class ReceiptStore {
  private readonly sends = new Map<string, StoredSend>();
  private fh: FileHandle | null = null;
  private chain: Promise<void> = Promise.resolve();

  private constructor(private readonly path: string) {}

  static async open(stateDir: string, now = Date.now): Promise<ReceiptStore> {
    const dir = join(stateDir, 'sends');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const store = new ReceiptStore(join(dir, 'log.jsonl'));
    let text = '';
    try {
      text = await readFile(store.path, 'utf8');
    } catch {
      // first start: no log yet
    }
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const parsed = StoredSend.safeParse(JSON.parse(line));
        if (parsed.success) store.sends.set(parsed.data.receipt.requestId, parsed.data);
      } catch {
        // a line torn by a crash mid-write: the send it named was not typed yet
      }
    }
    // A send caught mid-typing by a crash may be partly in the box: never type it again.
    for (const s of store.sends.values()) {
      if (s.receipt.state === 'typing') {
        s.receipt = { ...s.receipt, state: 'not_submitted', outcome: OUTCOME.interrupted, final: true, updatedAt: now() };
        delete s.text;
      }
    }
    const kept = [...store.sends.values()].sort((a, b) => a.receipt.createdAt - b.receipt.createdAt).slice(-KEEP);
    store.sends.clear();
    for (const s of kept) store.sends.set(s.receipt.requestId, s);
    await writeFileAtomic(store.path, kept.map((s) => `${JSON.stringify(s)}\n`).join(''), 0o600);
    store.fh = await open(store.path, 'a', 0o600);
    return store;
  }

  get(requestId: string): StoredSend | undefined {
    return this.sends.get(requestId);
  }

  /** Sends that were waiting (queued or held) when the bridge stopped: they resume. */
  waiting(): StoredSend[] {
    return [...this.sends.values()].filter((s) => !s.receipt.final);
  }

  /** Record a change; resolves once it is on disk. Final sends drop what they had to type. */
  put(send: StoredSend): Promise<void> {
    const entry: StoredSend = send.receipt.final ? { receipt: send.receipt } : send;
    this.sends.set(send.receipt.requestId, entry);
    const line = `${JSON.stringify(entry)}\n`;
    // Each write waits for the one before, whether it failed or not.
    const next = this.chain.catch(() => undefined).then(async () => {
      if (!this.fh) throw new Error('sends: the receipt log is closed');
      await this.fh.write(line);
      await this.fh.datasync();
    });
    this.chain = next;
    return next;
  }

  /** Wait for every write, then close; a put after this fails with a reason in words. */
  async close(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.chain;
      await last.catch(() => undefined);
    } while (last !== this.chain);
    const fh = this.fh;
    this.fh = null;
    await fh?.close();
  }
}
