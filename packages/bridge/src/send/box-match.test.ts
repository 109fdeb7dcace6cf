import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASTE_PLACEHOLDER } from '../harness/claude/index';
import { boxForm, graphemes, matchBox, withoutOurs } from './box-match';

/** What a tmux capture of the agent's box may lose or change, one kind at a time. */
const LOSSES: ((s: string) => string)[] = [
  (s) => s.replace(/[\u{1F3FB}-\u{1F3FF}]/gu, ''), // emoji skin-tone modifiers
  (s) => s.replace(/\u200D/gu, ''), // zero-width joiner
  (s) => s.replace(/[\uFE00-\uFE0F]/gu, ''), // variation selectors
  (s) => s.replace(/[\u200B\u200C\u2060\uFEFF]/gu, ''), // zero-width characters
  (s) => s.normalize('NFC'), // the agent composes e + U+0301 into é
  (s) => s.normalize('NFD'),
  (s) => s.replace(/\s+/gu, ' '), // a wrap read back as one space
  // A wide character's padding cell, after all that tmux keeps in its cell (marks, modifiers, invisibles).
  (s) => s.replace(/(\p{Script=Han}|\p{Emoji_Presentation})([\p{M}\p{Default_Ignorable_Code_Point}\u{1F3FB}-\u{1F3FF}]*)/gu, '$1$2 '),
  (s) => s.replace(/ /gu, '\n  '), // a row break with the continuation indent
  // A joined emoji's tail (👨‍👩‍👧‍👦 as 👨‍👩‍👧): a joiner between two emoji, not after a letter.
  (s) => s.replace(/(?<=\p{Extended_Pictographic}[\u{1F3FB}-\u{1F3FF}\uFE0F]*)\u200D\p{Extended_Pictographic}/gu, '\u200D'),
  // An emoji tmux cannot size, drawn blank (🪿). Seen alone; a combining mark on such an emoji
  // (after its skin tone or any invisible character too: tmux keeps those in the emoji's cell)
  // has no capture on record (blanked, the mark would join the letter before it), so it stays.
  (s) => s.replace(/\p{Extended_Pictographic}(?![\p{Default_Ignorable_Code_Point}\u{1F3FB}-\u{1F3FF}]*\p{M})/gu, ' '),
  (s) => s.replace(/\u00AD/gu, ''), // soft hyphen
];

/** What is left of a text once everything a capture may lose is gone: equal for a match. */
const bare = (s: string) => [...boxForm(s)].filter((c) => !/[\p{Extended_Pictographic}\p{Regional_Indicator}\u20E3]/u.test(c)).join('');

/** Characters a capture loses, to sprinkle into generated text. */
const LOSSY = ['\u{1F3FD}', '\u200D', '\uFE0F', '\u200B', '\u0301', ' ', '\n', '\u00AD', '🪿', '🇯🇵', '1️⃣'];
const text = fc
  .array(fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }), fc.constantFrom(...LOSSY, '👍', '日本', 'שלום', 'é', 'e')), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join(''))
  // A combining mark on white space is no text a person types (tmux puts it on a blank cell).
  .filter((s) => boxForm(s) !== '' && !/\s[\p{Default_Ignorable_Code_Point}]*\p{M}/u.test(s));
const losses = fc.array(fc.constantFrom(...LOSSES), { maxLength: 4 });

describe('the box comparison', () => {
  it('for any text and any of the capture losses: the box shows our text', () => {
    fc.assert(
      fc.property(text, losses, (t, ls) => {
        const shown = ls.reduce((s, f) => f(s), t);
        // A text of nothing but emoji a capture can lose may show as an empty box: not checkable.
        fc.pre(boxForm(shown) !== '');
        expect(matchBox(shown, t, PASTE_PLACEHOLDER)).toBe('ours');
      }),
      { numRuns: Number(process.env.BOX_RUNS ?? 2000) },
    );
  });

  it('for any text and anything else in the box (after the same losses): never ours', () => {
    fc.assert(
      fc.property(text, text, losses, (t, other, ls) => {
        fc.pre(bare(other) !== bare(t) && !PASTE_PLACEHOLDER.test(other.trim()));
        const shown = ls.reduce((s, f) => f(s), other);
        expect(matchBox(shown, t, PASTE_PLACEHOLDER)).not.toBe('ours');
      }),
      { numRuns: Number(process.env.BOX_RUNS ?? 2000) },
    );
  });

  it('for any text with someone else\'s keys before or after it: ours and more, and their keys are what is left', () => {
    fc.assert(
      fc.property(text, text, fc.boolean(), losses, (t, keys, before, ls) => {
        fc.pre(bare(keys) !== '' && bare(t) !== '');
        const box = before ? keys + t : t + keys;
        const shown = ls.reduce((s, f) => f(s), box);
        expect(matchBox(shown, t, PASTE_PLACEHOLDER)).not.toBe('ours');
        // A combining mark at the seam composes with the character before it: not ours, and
        // not cleanly separable either.
        fc.pre(boxForm(box) === (before ? boxForm(keys) + boxForm(t) : boxForm(t) + boxForm(keys)));
        expect(matchBox(shown, t, PASTE_PLACEHOLDER)).toBe('ours_and_more');
        if (before) expect(bare(withoutOurs(shown, t))).toBe(bare(keys));
      }),
      { numRuns: 1000 },
    );
  });

  it('the cases seen on the real TUI', () => {
    expect(matchBox('thumbs 👍 up', 'thumbs 👍🏽 up', null)).toBe('ours'); // tmux drops the modifier
    expect(matchBox('é', 'e\u0301', null)).toBe('ours'); // Claude composes the accent
    expect(matchBox('phone-35-0USERKEYS', 'phone-35-0', null)).toBe('ours_and_more');
    expect(matchBox('quick draft 1race2-1', 'race2-1', null)).toBe('ours_and_more');
    expect(matchBox('[Pasted text #1 +12 lines]', 'x\n'.repeat(12), PASTE_PLACEHOLDER)).toBe('ours');
    expect(matchBox('draft[Pasted text #1 +12 lines]', 'x\n'.repeat(12), PASTE_PLACEHOLDER)).toBe('ours_and_more');
    expect(matchBox('phone-3', 'phone-35-0', null)).toBe('other');
    expect(matchBox(null, 'x', null)).toBe('empty');
    expect(matchBox('  \n', 'x', null)).toBe('empty');
    expect(matchBox('!ls', '!ls', null)).toBe('ours');
    expect(matchBox('ls', '!ls', null)).toBe('other');
    expect(matchBox('👨‍👩‍👧‍ | 🤷 | 🪿 |    | softhyphen', '👨‍👩‍👧‍👦 | 🤷🏼‍♀️ | 🪿 | 🪿 | soft\u00ADhyphen', null)).toBe('ours');
    expect(matchBox('🧑‍🎓 x', '🧑‍🎓', null)).toBe('ours_and_more');
    expect(withoutOurs('!👍\u0301', '👍\u0301')).toBe('!');
  });

  it('counts Backspaces per grapheme', () => {
    expect(graphemes('e\u0301👍🏽a\nb')).toBe(5);
    expect(graphemes('👨‍👩‍👧')).toBe(1);
  });
});
