/**
 * What a test rig started, stopped last first.
 *
 * @example
 * const started = new Started();
 * return started.guard(async () => ({ tmux: started.use(await startTmux()), [Symbol.asyncDispose]: () => started[Symbol.asyncDispose]() }));
 */
/** Keeps what a rig started and stops it last first; a set-up that throws stops what it had started. */
export class Started implements AsyncDisposable {
  private readonly stops: (() => PromiseLike<unknown>)[] = [];
  /** Keeps `part` to dispose with the rest; returns it. */
  use<T extends AsyncDisposable>(part: T): T {
    this.stops.push(() => part[Symbol.asyncDispose]());
    return part;
  }
  async [Symbol.asyncDispose](): Promise<void> {
    for (const stop of this.stops.splice(0).reverse()) await stop();
  }
  /** Runs `build`; when it throws, stops what was started and throws on. */
  async guard<T>(build: () => Promise<T>): Promise<T> {
    try {
      return await build();
    } catch (error) {
      await this[Symbol.asyncDispose]();
      throw error;
    }
  }
}
