import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headingLevels, type Inline, parseInline, parseMarkdown } from './markdown';

const words = (xs: readonly Inline[]) => xs.map((x) => x.text).join('');
const links = (xs: readonly Inline[]) => xs.flatMap((x) => (x.kind === 'link' ? [x] : []));

describe('the chat’s markdown', () => {
  it('a refused link keeps its label and leaves nothing of its target, parentheses and all', () => {
    for (const target of ['javascript:alert(1)', 'JaVaScRiPt:alert(document.cookie)', 'data:text/html,<b>x</b>', 'http://plain.example.com/a', 'vbscript:msgbox(1)']) {
      const xs = parseInline(`a [bad link](${target}) b`);
      expect(words(xs)).toBe('a bad link b');
      expect(links(xs)).toEqual([{ kind: 'link', text: 'bad link', href: null }]);
    }
  });

  it('an https link with parentheses in it stays one whole link', () => {
    const xs = parseInline('see [Rust](https://en.wikipedia.org/wiki/Rust_(programming_language)).');
    expect(links(xs)).toEqual([{ kind: 'link', text: 'Rust', href: 'https://en.wikipedia.org/wiki/Rust_(programming_language)' }]);
    expect(words(xs)).toBe('see Rust.');
  });

  it('raw HTML stays words', () => {
    const blocks = parseMarkdown('A <script>alert(1)</script> <img src=x onerror=alert(1)>');
    expect(blocks).toEqual([{ kind: 'paragraph', inlines: [{ kind: 'text', text: 'A <script>alert(1)</script> <img src=x onerror=alert(1)>' }] }]);
  });

  it('any text: only https:// links, and no words of a refused target survive', () => {
    const target = fc.oneof(
      fc.constantFrom('javascript:alert(1)', 'javascript:void(0)', 'data:x', 'file:///etc/passwd', 'https://ok.example.com/a_(b)', 'https://x.example.com/"><img>'),
      fc.string({ maxLength: 20 }),
    );
    const piece = fc.oneof(fc.string({ maxLength: 20 }), fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), target).map(([l, t]) => `[${l}](${t})`));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (parts) => {
        const source = parts.join(' ');
        for (const block of parseMarkdown(source)) {
          const rows = block.kind === 'list' ? block.items : block.kind === 'code' ? [] : [block.inlines];
          for (const link of rows.flatMap(links)) if (link.href !== null) expect(link.href.startsWith('https://')).toBe(true);
        }
        for (const x of parseInline(source)) if (x.kind === 'link' && x.href === null) expect(x.text.includes('javascript:')).toBe(false);
      }),
    );
  });
});

describe('a reply’s headings in the page’s outline', () => {
  const levels = (source: string) => headingLevels(parseMarkdown(source));

  it('start just under the page’s h1 whatever level the reply opens on', () => {
    expect(levels('# Plan\n\ntext\n\n## Steps\n\n### One')).toEqual([2, 3, 4]);
    expect(levels('### Findings\n\n- a\n\n### Next')).toEqual([2, 2]);
    expect(levels('## What I found\n\ntext')).toEqual([2]);
    expect(levels('### Deep first\n\n# Then big\n\n## Then middle')).toEqual([2, 2, 3]);
    expect(levels('no headings at all')).toEqual([]);
  });

  it('any headings: none above the top, none deeper than one under the one before, none past 6', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('#', '##', '###'), { maxLength: 12 }), fc.integer({ min: 2, max: 5 }), (marks, top) => {
        const blocks = parseMarkdown(marks.map((m, i) => `${m} heading ${i}\n\nwords`).join('\n\n'));
        const got = headingLevels(blocks, top);
        expect(got).toHaveLength(marks.length);
        let prev = top - 1;
        for (const level of got) {
          expect(level).toBeGreaterThanOrEqual(top);
          expect(level).toBeLessThanOrEqual(Math.min(prev + 1, 6));
          prev = level;
        }
        // The biggest heading the reply has is at the top level.
        if (marks.length) expect(got[marks.map((m) => m.length).indexOf(Math.min(...marks.map((m) => m.length)))]).toBe(top);
      }),
    );
  });
});
