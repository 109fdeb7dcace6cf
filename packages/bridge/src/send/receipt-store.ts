import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { KeyName, OUTCOME, SendReceipt } from '@collie/protocol';
import { writeFileAtomic } from '../config';
import { forgetOldest, retained, type Retention } from '../config/retention';
import { UntilWritten } from '../config/until-written';
import { WriteChain } from '../config/write-chain';

/**
 * One send as stored: its receipt; what it still has to type while it can still be typed;
 * a keyed hash of the request (`fingerprint`, to tell a reused request id from the same
 * request again) and of the text it left in the box (`leftHash`, for the box actions).
 */
export const StoredSend = z.object({
  receipt: SendReceipt,
  text: z.string().optional(),
  keys: z.array(KeyName).optional(),
  fingerprint: z.string().optional(),
  leftHash: z.string().optional(),
  /** A scheduled send: when its time came and it joined the pane's queue (its hold counts from then). */
  firedAt: z.number().optional(),
});
export type StoredSend = z.infer<typeof StoredSend>;

/**
 * Receipts kept, while the bridge runs and across restarts (`config/retention.ts`): every one
 * made in the last day (a request id sent again within a day gets its receipt, never a second
 * send), and the newest `KEEP` beyond that; older request ids may be reused after that.
 */
export const KEEP = 5000;

/** Sends as the retention sees them: made at `createdAt`; one still waiting always stays (its lines leave the log at its next rewrite). */
const receiptRetention = (keep: number): Retention<StoredSend> => ({ keep, madeAt: (s) => s.receipt.createdAt, stays: (s) => !s.receipt.final });

/** How soon after a send ends the log is rewritten without the text it no longer needs. */
const COMPACT_AFTER_MS = 200;
/** How soon a rewrite that failed (the state disk full) is tried again. */
const COMPACT_RETRY_MS = 10_000;

/**
 * A receipt the store could not write (the state disk full). A final one is written again until
 * it is on disk (`config/until-written.ts`); one before anything is typed is the caller's to
 * end (`send-service.ts`: not sent, nothing typed).
 */
export class NotSaved extends Error {
  constructor(cause: unknown) {
    super(`sends: the receipt could not be written: ${(cause as Error).message}`, { cause });
  }
}

/**
 * Receipts on disk: `<state>/sends/log.jsonl`, one JSON line per change, flushed to disk
 * before the call returns. A receipt is written before a key is typed, so after `kill -9`
 * the bridge knows every request id it may have typed and never types one twice.
 *
 * A text stays on disk only while its send may still be typed (queued, held): when the send
 * ends, the log is rewritten soon after without the lines that carried it; a final receipt
 * keeps the masked summary and keyed hashes (HMAC-SHA-256 with `<state>/sends/key`, 0600, so
 * a short secret cannot be found by hashing guesses). On open the log is folded (a torn last
 * line is dropped), migrated (texts of ended sends dropped, hashes added) and rewritten.
 */
export class ReceiptStore {
  private readonly sends = new Map<string, StoredSend>();
  private fh: FileHandle | null = null;
  private readonly writes = new WriteChain();
  /** Ended sends whose text is still on an older line of the log. */
  private stale = 0;
  private compactTimer: NodeJS.Timeout | null = null;
  /** Final receipts whose write failed, written again until they are on disk. */
  private readonly finals = new UntilWritten<StoredSend>((s) => this.write(s), (s) => s.receipt.requestId, (id) => this.sends.get(id));

  private constructor(
    private readonly path: string,
    private readonly key: Buffer,
    private readonly retention: Retention<StoredSend>,
    private readonly now: () => number,
  ) {}

  /** Opens the log in `<stateDir>/sends`; `keep`: how many receipts older than a day it holds (KEEP; tests give fewer). */
  static async open(stateDir: string, now = Date.now, keep = KEEP): Promise<ReceiptStore> {
    const dir = join(stateDir, 'sends');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const store = new ReceiptStore(join(dir, 'log.jsonl'), await hashKey(join(dir, 'key')), receiptRetention(keep), now);
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
    for (const s of store.sends.values()) {
      const ended = (state: SendReceipt['state'], outcome: string) => (s.receipt = { ...s.receipt, state, outcome, final: true, updatedAt: now() });
      const text = s.receipt.kind === 'text';
      // A send caught mid-typing by a crash may be partly in the box: never type it again.
      // Keys or an answer caught mid-press may have been taken: never pressed again either.
      if (s.receipt.state === 'typing') ended('not_submitted', text ? OUTCOME.interrupted : OUTCOME.stoppedPressing);
      // Only a text send waits again; keys or an answer that waited their turn were not pressed,
      // and an answer pressed later would meet a screen no one read for it.
      else if (!text && !s.receipt.final) ended('not_sent', OUTCOME.stopped);
      // Logs written before hashes: the request's hash from its text while it is there.
      if (s.fingerprint === undefined && (s.text !== undefined || s.keys !== undefined)) {
        s.fingerprint = store.fingerprint(s.receipt.kind, s.text ?? s.keys!.join(' '));
      }
      if (s.receipt.final) {
        delete s.text;
        delete s.keys;
      }
    }
    const kept = retained([...store.sends.values()], store.retention, now());
    store.sends.clear();
    for (const s of kept) store.sends.set(s.receipt.requestId, s);
    await writeFileAtomic(store.path, kept.map((s) => `${JSON.stringify(s)}\n`).join(''), 0o600);
    store.fh = await open(store.path, 'a', 0o600);
    return store;
  }

  /** A keyed hash of a request's kind and payload (text, keys, answer). */
  fingerprint(kind: string, payload: string): string {
    return createHmac('sha256', this.key).update(`${kind}\0${payload}`).digest('hex');
  }

  /** How many receipts it holds now (at most `keep` beyond those of the last day and the sends still waiting). */
  get size(): number {
    return this.sends.size;
  }

  get(requestId: string): StoredSend | undefined {
    return this.sends.get(requestId);
  }

  /** Sends that were waiting (queued or held) when the bridge stopped: they resume. */
  waiting(): StoredSend[] {
    return [...this.sends.values()].filter((s) => !s.receipt.final);
  }

  /** Every send that is not final, and the latest `perPane` final ones of each pane, oldest first. */
  latest(perPane: number): SendReceipt[] {
    const all = [...this.sends.values()].map((s) => s.receipt).sort((a, b) => a.updatedAt - b.updatedAt);
    const finals = new Map<string, number>();
    const keep = new Set<SendReceipt>();
    for (const r of [...all].reverse()) {
      if (!r.final) keep.add(r);
      else if ((finals.get(r.paneId) ?? 0) < perPane) {
        finals.set(r.paneId, (finals.get(r.paneId) ?? 0) + 1);
        keep.add(r);
      }
    }
    return all.filter((r) => keep.has(r));
  }

  /**
   * Record a change; resolves once it is on disk, rejects with {@link NotSaved} when the write
   * fails. A final receipt is then written again until it is on disk. Final sends drop what they
   * had to type.
   */
  put(send: StoredSend): Promise<void> {
    const before = this.sends.get(send.receipt.requestId);
    const entry: StoredSend = send.receipt.final ? { receipt: send.receipt, fingerprint: send.fingerprint, leftHash: send.leftHash } : send;
    if (send.receipt.final && (before?.text !== undefined || before?.keys !== undefined || send.text !== undefined)) this.stale++;
    this.sends.set(send.receipt.requestId, entry);
    if (this.sends.size > this.retention.keep) forgetOldest(this.sends, this.retention, this.now());
    const next = entry.receipt.final ? this.finals.keep(entry) : this.write(entry);
    if (this.stale > 0 && !this.compactTimer) this.compactAfter(COMPACT_AFTER_MS);
    return next;
  }

  /** One line on disk; a write that fails rejects with {@link NotSaved}. */
  private write(entry: StoredSend): Promise<void> {
    const line = `${JSON.stringify(entry)}\n`;
    return this.writes.run(async () => {
      if (!this.fh) throw new Error('sends: the receipt log is closed');
      try {
        await this.fh.write(line);
        await this.fh.datasync();
      } catch (err) {
        throw new NotSaved(err);
      }
    });
  }

  private compactAfter(ms: number): void {
    // A rewrite that fails (the state disk full) is tried again later: the log as it stands holds every receipt.
    this.compactTimer = setTimeout(() => void this.compact().catch(() => this.fh && this.compactAfter(COMPACT_RETRY_MS)), ms);
  }

  /**
   * Rewrite the log from what is kept, so texts of ended sends are gone from disk too. When the
   * rewrite fails, the log is left as it was (appends go on) and its stale lines are counted again.
   */
  compact(): Promise<void> {
    if (this.compactTimer) clearTimeout(this.compactTimer);
    this.compactTimer = null;
    return this.writes.run(async () => {
      if (!this.fh || this.stale === 0) return;
      const stale = this.stale;
      this.stale = 0;
      try {
        await writeFileAtomic(this.path, [...this.sends.values()].map((s) => `${JSON.stringify(s)}\n`).join(''), 0o600);
      } catch (err) {
        this.stale += stale;
        throw err;
      }
      await this.fh.close();
      this.fh = await open(this.path, 'a', 0o600);
    });
  }

  /** Wait for every write (and the pending rewrite), then close; a put after this fails with a reason in words. */
  async close(): Promise<void> {
    this.finals.stop();
    if (this.compactTimer) await this.compact().catch(() => undefined);
    await this.writes.drain();
    const fh = this.fh;
    this.fh = null;
    await fh?.close();
  }
}

/** The store's hash key: made once, kept 0600 beside the log. */
async function hashKey(path: string): Promise<Buffer> {
  try {
    const hex = (await readFile(path, 'utf8')).trim();
    if (/^[0-9a-f]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  } catch {
    // no key yet
  }
  const key = randomBytes(32);
  await writeFileAtomic(path, `${key.toString('hex')}\n`, 0o600);
  return key;
}
