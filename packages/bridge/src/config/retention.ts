/**
 * What a store of request ids keeps (the send receipts, the durable taps): every entry made in
 * the last `KEEP_MS`, however many, so a request id sent again within a day is known and never
 * acted on twice; and the newest `keep` beyond that. Entries `stays` names (sends still waiting)
 * are never forgotten.
 */
export const KEEP_MS = 24 * 60 * 60_000;

export interface Retention<T> {
  readonly keep: number;
  /** When the entry was made. */
  madeAt(entry: T): number;
  /** An entry never forgotten (default: none). */
  stays?(entry: T): boolean;
}

/** The entries kept of `all` (any order), oldest first: as a store keeps them on open. */
export function retained<T>(all: readonly T[], r: Retention<T>, now: number): T[] {
  const sorted = [...all].sort((a, b) => r.madeAt(a) - r.madeAt(b));
  const dayAgo = now - KEEP_MS;
  return sorted.filter((e, i) => i >= sorted.length - r.keep || r.madeAt(e) > dayAgo || r.stays?.(e) === true);
}

/**
 * Forgets entries of `held` (a map in the order they were made) from the oldest on, down to
 * `keep`, stopping at the first made within the day: as `retained` would on the next open.
 */
export function forgetOldest<K, T>(held: Map<K, T>, r: Retention<T>, now: number): void {
  const dayAgo = now - KEEP_MS;
  for (const [id, e] of held) {
    if (held.size <= r.keep || r.madeAt(e) > dayAgo) return;
    if (r.stays?.(e) !== true) held.delete(id);
  }
}
