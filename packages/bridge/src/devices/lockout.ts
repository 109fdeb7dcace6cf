/**
 * Pairing lockout: 5 wrong codes inside 10 minutes lock code pairing for 10 minutes. A code
 * has 2^40 values, so 5 tries per 10 minutes leave a guesser no chance in a code's lifetime.
 */
import type { PairingLock } from '@collie/protocol';

export const MAX_WRONG_CODES = 5;
export const LOCK_MS = 10 * 60_000;
export const WINDOW_MS = 10 * 60_000;

export const OPEN_LOCK: PairingLock = { failures: [], lockedUntil: null };

/** The end of the lock in force at `now`, or null. */
export function lockedUntil(lock: PairingLock, now: number): number | null {
  return lock.lockedUntil !== null && lock.lockedUntil > now ? lock.lockedUntil : null;
}

/** One more wrong code; locks when it is the fifth inside the window. */
export function recordWrongCode(lock: PairingLock, now: number): PairingLock {
  const failures = [...lock.failures.filter((t) => t > now - WINDOW_MS), now];
  if (failures.length >= MAX_WRONG_CODES) return { failures: [], lockedUntil: now + LOCK_MS };
  return { failures, lockedUntil: lockedUntil(lock, now) };
}

/** Tries left before the lock, at `now`. */
export function triesLeft(lock: PairingLock, now: number): number {
  return MAX_WRONG_CODES - lock.failures.filter((t) => t > now - WINDOW_MS).length;
}
