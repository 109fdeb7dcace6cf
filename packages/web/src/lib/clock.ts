/**
 * One shared one-second clock for every "time in state" on screen. It runs only while
 * something shows a duration, and it reads the phone's clock: it never asks the bridge.
 */
const TICK_MS = 1000;

let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

export function subscribeClock(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    now = Date.now();
    timer = setInterval(tick, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The time of the last tick; refreshed on read while stopped, so a new reader never sees a stale hour. */
export function clockNow(): number {
  if (timer === null && Date.now() - now >= TICK_MS) now = Date.now();
  return now;
}

function tick(): void {
  now = Date.now();
  for (const listener of listeners) listener();
}
