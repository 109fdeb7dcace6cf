/** How soon a record whose write failed (the state disk full) is tried again. */
export const KEEP_RETRY_MS = 5_000;

/**
 * Records that may not be lost once decided (a walky receipt's outcome, a send's outcome after
 * typing): saved, and when the write fails (the state disk full) saved again every
 * {@link KEEP_RETRY_MS} until it is on disk. A later record of the same key takes its place,
 * and a try takes the record as it stands then (`current`: a change made since is in it), or
 * the one kept when there is none.
 */
export class UntilWritten<T> {
  /** Records whose write failed, by key. */
  private readonly unwritten = new Map<string, T>();
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly save: (t: T) => Promise<void>,
    private readonly key: (t: T) => string,
    private readonly current: (key: string) => T | undefined,
  ) {}

  /** Rejects as `save` does when the first write fails, so a caller that acknowledges the record can hold its acknowledgement. */
  async keep(t: T): Promise<void> {
    const k = this.key(t);
    this.unwritten.set(k, t);
    try {
      await this.save(t);
    } catch (err) {
      this.tryAgain();
      throw err;
    }
    if (this.unwritten.get(k) === t) this.unwritten.delete(k);
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
      for (const [k, t] of [...this.unwritten]) this.keep(this.current(k) ?? t).catch(() => undefined);
    }, KEEP_RETRY_MS);
    this.retry.unref();
  }
}
