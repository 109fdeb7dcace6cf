/** First retry after a drop waits about this long; a bridge restart usually takes longer. */
export const BACKOFF_BASE_MS = 500;
/** Never wait longer than this between attempts, so a phone reconnects soon after the bridge is back. */
export const BACKOFF_MAX_MS = 15_000;

/**
 * The cap while a person looks at the page: a bridge restart takes a second or two, and they
 * should see it live again within about a second of its return. Checking that often costs a
 * refused connection on loopback or the tailnet, nothing more.
 */
export const BACKOFF_VISIBLE_MAX_MS = 1000;

/**
 * Delay before reconnect attempt `attempt` (0-based): exponential, capped, with "equal jitter"
 * (half fixed, half random) so many phones do not reconnect in lockstep after a bridge restart.
 * `random` returns a number in [0, 1), like `Math.random`.
 */
export function backoffDelay(attempt: number, random: () => number, max = BACKOFF_MAX_MS): number {
  const exponent = Math.min(Math.max(0, Math.floor(attempt)), 16);
  const ceiling = Math.min(Math.max(BACKOFF_BASE_MS, max), BACKOFF_BASE_MS * 2 ** exponent);
  const half = ceiling / 2;
  return Math.round(half + half * Math.min(Math.max(random(), 0), 1));
}
