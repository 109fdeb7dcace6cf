import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstLine } from './launchers';

describe("an agent's --version output", () => {
  it('is its first non-blank line, trimmed, at most 80 characters', () => {
    expect(firstLine('\n  codex-cli 0.171.0  \nmore\n')).toBe('codex-cli 0.171.0');
    expect(firstLine('')).toBe(null);
    expect(firstLine(' \n\t\n')).toBe(null);
    expect(firstLine('x'.repeat(100))).toHaveLength(80);
  });

  it('never holds a line break and comes from the text (property)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const l = firstLine(s);
        if (l === null) return;
        expect(l.length).toBeLessThanOrEqual(80);
        expect(l).not.toContain('\n');
        expect(s).toContain(l);
      }),
    );
  });
});
