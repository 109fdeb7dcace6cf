/**
 * One file's writes in order: each job starts once the one before it settled, whatever that
 * one did, so a failed write never stops the next. The send log, the walky log and the durable
 * tap journal each write through one.
 */
export class WriteChain {
  #tail: Promise<void> = Promise.resolve();

  /** Runs `job` after every job queued before it; the promise is the job's own (a rejection stays with its caller). */
  run(job: () => Promise<void>): Promise<void> {
    const next = this.#tail.catch(() => undefined).then(job);
    this.#tail = next;
    return next;
  }

  /** Resolves once every job queued so far, and any queued while it waited, has settled. */
  async drain(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.#tail;
      await last.catch(() => undefined);
    } while (last !== this.#tail);
  }
}
