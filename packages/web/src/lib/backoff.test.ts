import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BACKOFF_BASE_MS, BACKOFF_MAX_MS, BACKOFF_VISIBLE_MAX_MS, backoffDelay } from './backoff';

describe('backoffDelay', () => {
  it('doubles from the base up to the cap, half of it jittered', () => {
    expect(backoffDelay(0, () => 0)).toBe(BACKOFF_BASE_MS / 2);
    expect(backoffDelay(0, () => 0.999999)).toBe(BACKOFF_BASE_MS);
    expect(backoffDelay(1, () => 0)).toBe(BACKOFF_BASE_MS);
    expect(backoffDelay(3, () => 0)).toBe(BACKOFF_BASE_MS * 4);
    expect(backoffDelay(50, () => 0)).toBe(BACKOFF_MAX_MS / 2);
    expect(backoffDelay(50, () => 0.999999)).toBe(BACKOFF_MAX_MS);
  });

  it('stays within [ceiling/2, cap] for any attempt and any random source', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 1000 }), fc.double({ noNaN: true }), (attempt, random) => {
        const delay = backoffDelay(attempt, () => random);
        expect(delay).toBeGreaterThanOrEqual(BACKOFF_BASE_MS / 2);
        expect(delay).toBeLessThanOrEqual(BACKOFF_MAX_MS);
      }),
    );
  });

  it('never waits more than the visible cap while the page is looked at', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.double({ min: 0, max: 1, noNaN: true }), (attempt, random) => {
        expect(backoffDelay(attempt, () => random, BACKOFF_VISIBLE_MAX_MS)).toBeLessThanOrEqual(BACKOFF_VISIBLE_MAX_MS);
      }),
    );
  });
});
