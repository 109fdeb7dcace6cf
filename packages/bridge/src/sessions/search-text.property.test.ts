import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasWords, queryWords, searchText } from './search-text';

/**
 * The word search against any text: the words of a query hold no white space and are lower
 * case; every word cut from a title or a first message finds its session, in any case; a word
 * in neither never does; the empty query finds every session.
 */
const text = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 80 }), fc.constantFrom('Fix the Login bug', 'ÉCOLE straße İstanbul', '\u202e\u0000 tab\there'));
const nullable = fc.option(text, { nil: null });

describe('session search words', () => {
  it('splits a query into lower-case words without white space', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 100 }), (q) => {
        for (const w of queryWords(q)) {
          expect(w).not.toBe('');
          expect(w).not.toMatch(/\s/);
          expect(w).toBe(w.toLowerCase());
        }
        expect(queryWords(q).join('')).toBe(q.toLowerCase().replace(/\s+/g, ''));
      }),
    );
  });

  it('finds a session by any word cut from its title or first message, in any case', () => {
    fc.assert(
      fc.property(nullable, nullable, fc.nat(), fc.nat(), fc.boolean(), (title, first, a, b, upper) => {
        const hay = searchText(title, first);
        const source = (a % 2 === 0 ? title : first) ?? '';
        const words = source.split(/\s+/).filter(Boolean);
        if (words.length === 0) return;
        const word = words[b % words.length]!;
        const asked = upper ? word.toUpperCase() : word;
        // A word whose case folding changes its length (ß → SS, İ → i̇) is asked as written.
        const q = asked.toLowerCase().split(/\s+/).filter(Boolean).length === 1 ? asked : word;
        expect(hasWords(hay, queryWords(q))).toBe(queryWords(q).every((w) => hay.includes(w)));
        expect(hasWords(hay, queryWords(word))).toBe(true);
      }),
    );
  });

  it('never finds a word that is in neither, and the empty query finds all', () => {
    fc.assert(
      fc.property(nullable, nullable, (title, first) => {
        const hay = searchText(title, first);
        expect(hasWords(hay, queryWords(''))).toBe(true);
        expect(hasWords(hay, queryWords('   \t'))).toBe(true);
        const absent = `zq${'x'.repeat(hay.length + 1)}`;
        expect(hasWords(hay, queryWords(absent))).toBe(false);
        expect(hasWords(hay, queryWords(`${(title ?? 'a').split(/\s+/)[0] || 'a'} ${absent}`))).toBe(false);
      }),
    );
  });
});
