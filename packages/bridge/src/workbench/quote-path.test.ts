import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeAgent } from '../harness/claude/index';
import { reviewMessage } from './changes/review-message';
import { composeAttachments } from './uploads/compose';
import { quotePath } from './quote-path';

/** Reads back one word as a reader of quoted paths does: bare, or "…" with \" and \\ escaped. */
function unquote(word: string): string {
  if (!word.startsWith('"')) return word;
  return word.slice(1, -1).replace(/\\(["\\])/g, '$1');
}

describe('paths typed into a pane', () => {
  it('are bare without spaces and quoted with them', () => {
    expect(quotePath('/s/uploads/u_1-a.png')).toBe('/s/uploads/u_1-a.png');
    expect(quotePath('/Users/me/Library/Application Support/collie/uploads/u.png')).toBe('"/Users/me/Library/Application Support/collie/uploads/u.png"');
    expect(quotePath('src/my "notes".md')).toBe('"src/my \\"notes\\".md"');
    expect(quotePath('a\tb')).toBe('"a\tb"');
  });

  it('always come back as the same path and never hold a bare space (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80, unit: 'binary' }), (p) => {
        const q = quotePath(p);
        expect(unquote(q)).toBe(p);
        if (!q.startsWith('"')) expect(/\s/u.test(q)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('are quoted in attachments (Claude Code and bare) and in review comments', () => {
    const dir = '/home/me/Application Support/collie/uploads';
    const claude = claudeAgent.attachment?.bind(claudeAgent);
    expect(composeAttachments([`${dir}/u_1-a.png`], 'why?', claude)).toBe(`@"${dir}/u_1-a.png" why?`);
    expect(composeAttachments([`${dir}/u_1-a.png`], 'why?', undefined)).toBe(`why? "${dir}/u_1-a.png"`);
    const text = reviewMessage([{ path: 'docs/my notes.md', line: 2, side: 'new', code: 'x', text: 'fix' }]);
    expect(text).toContain('\n"docs/my notes.md":2\n');
  });
});
