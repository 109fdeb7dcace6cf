import type { WireResult } from '@collie/protocol';

/**
 * Request-id deduplication: the first call with an id runs; every later call with that id (also
 * one that arrives while the first still runs) gets the first one's result. The bridge retries
 * with the same id when it is not sure a call arrived, so this is what makes "told once" true.
 */
export class Once {
  private readonly results = new Map<string, Promise<WireResult>>();

  constructor(private readonly keep = 10_000) {}

  run(requestId: string, act: () => Promise<WireResult>): Promise<WireResult> {
    const have = this.results.get(requestId);
    if (have) return have;
    const p = act();
    this.results.set(requestId, p);
    if (this.results.size > this.keep) {
      const oldest = this.results.keys().next().value;
      if (oldest !== undefined) this.results.delete(oldest);
    }
    return p;
  }
}
