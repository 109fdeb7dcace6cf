import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [999, '0s'],
    [12 * S, '12s'],
    [59 * S + 999, '59s'],
    [60 * S, '1m'],
    [3 * M + 40 * S, '3m'],
    [59 * M + 59 * S, '59m'],
    [H, '1h'],
    [H + 20 * M + 30 * S, '1h 20m'],
    [23 * H + 59 * M, '23h 59m'],
    [D, '1d'],
    [3 * D + 4 * H + 5 * M, '3d 4h'],
  ])('%i ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('reads a negative span (phone clock ahead of the bridge) and non-numbers as 0s', () => {
    expect(formatDuration(-5 * S)).toBe('0s');
    expect(formatDuration(Number.NaN)).toBe('0s');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('0s');
  });

  it('is short and never goes backwards as time passes', () => {
    const rank = (text: string): number => {
      const units: Record<string, number> = { s: S, m: M, h: H, d: D };
      return text.split(' ').reduce((sum, part) => sum + Number.parseInt(part, 10) * (units[part.slice(-1)] ?? 0), 0);
    };
    fc.assert(
      fc.property(fc.nat(400 * D), fc.nat(10 * D), (a, delta) => {
        const text = formatDuration(a);
        expect(text).toMatch(/^\d+[smhd]( \d+[mh])?$/);
        expect(rank(formatDuration(a + delta))).toBeGreaterThanOrEqual(rank(text));
      }),
    );
  });
});
