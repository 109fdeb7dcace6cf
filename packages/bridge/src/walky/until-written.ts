import type { WalkyMessage } from '@collie/protocol';

/** How soon a receipt change whose write failed (the state disk full) is tried again. */
export const KEEP_RETRY_MS = 5_000;

/**
 * Receipt changes that may come only once (a delivery's outcome, one a crew machine reports):
 * saved, and when the write fails (the state disk full) saved again every {@link KEEP_RETRY_MS}
 * until it is on disk. `save` publishes and reports to the crew only once the write is done, so
 * nobody hears of a change the disk does not hold. A later change of the same message takes its
 * place, and a try takes the log's record as it stands (a change made since, say read, is in
 * it), or the one kept when the log has dropped it.
 */
export class UntilWritten {
  /** Changes whose write failed, by message id. */
  private readonly unwritten = new Map<string, WalkyMessage>();
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly save: (m: WalkyMessage) => Promise<void>,
    private readonly current: (id: string) => WalkyMessage | undefined,
    private readonly retryMs = KEEP_RETRY_MS,
  ) {}

  /** Rejects as `save` does when the first write fails, so a caller that acknowledges the change can hold its acknowledgement. */
  async keep(m: WalkyMessage): Promise<void> {
    this.unwritten.set(m.id, m);
    try {
      await this.save(m);
    } catch (err) {
      this.tryAgain();
      throw err;
    }
    if (this.unwritten.get(m.id) === m) this.unwritten.delete(m.id);
  }

  stop(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  private tryAgain(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      for (const m of [...this.unwritten.values()]) this.keep(this.current(m.id) ?? m).catch(() => undefined);
    }, this.retryMs);
    this.retry.unref();
  }
}
