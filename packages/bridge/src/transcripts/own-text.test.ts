import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ownText } from './entries';

describe('ownText: your own line as you wrote it', () => {
  it("takes off Claude Code's pasted_content wrapper and the blank lines around it", () => {
    expect(ownText('<pasted_content id="p1">\nReview comments (1):\n\nsrc/a.ts:3\nmake it const\n</pasted_content id="p1">')).toBe('Review comments (1):\n\nsrc/a.ts:3\nmake it const');
    expect(ownText('\n\nfirst\n\n\n\nsecond\n\n')).toBe('first\n\nsecond');
    expect(ownText('what is in this ')).toBe('what is in this ');
  });

  it('for any words: no wrapper left, no blank line first or last, no run of blank lines, and a second pass changes nothing', () => {
    const id = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
    const words = fc.string({ maxLength: 200 }).filter((s) => !s.includes('pasted_content'));
    fc.assert(
      fc.property(id, words, words, (i, inside, outside) => {
        const out = ownText(`${outside}<pasted_content id="${i}">\n${inside}\n</pasted_content id="${i}">`);
        expect(out).not.toContain('pasted_content');
        expect(out).not.toMatch(/^[ \t]*\n/);
        expect(out).not.toMatch(/\n[ \t]*$/);
        expect(out).not.toMatch(/\n[ \t]*\n[ \t]*\n/);
        expect(ownText(out)).toBe(out);
      }),
    );
  });
});
