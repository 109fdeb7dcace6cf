import { describe, expect, it } from 'vitest';
import { parseScreen } from '../screen/parse-screen';
import { findInputBox, readDraft } from './input-box';

const E = '\u001b';
const dim = (s: string): string => `${E}[2m${s}${E}[0m`;
const RULE = `${E}[38;2;136;136;136m${'─'.repeat(80)}${E}[0m`;
/** Claude's box as 2.1 draws it: a rule, `❯` + no-break space, the rows, a rule, a footer. */
const box = (...rows: string[]): string =>
  ['● Done.', '', RULE, ...rows, RULE, '  [Opus 4.8] ~/project', '  ⏸ manual mode on'].join('\r\n');
const draftOf = (screen: string): string | null => {
  const found = findInputBox(parseScreen(screen));
  if (!found) throw new Error('no input box');
  return readDraft(found);
};

describe('Claude input box', () => {
  it('is empty when only the prompt is drawn', () => {
    expect(draftOf(box('❯\u00a0'))).toBeNull();
  });

  it('is empty when it shows only a faint suggestion', () => {
    expect(draftOf(box(`❯\u00a0${dim('run the tests')}`))).toBeNull();
    expect(draftOf(box(`❯\u00a0${dim('Try "fix lint errors"')}`))).toBeNull();
  });

  it('keeps what was typed before a faint completion', () => {
    expect(draftOf(box(`❯\u00a0/rev${dim('iew')}`))).toBe('/rev');
  });

  it('keeps a paste token even when a theme draws it faint, and the text after it', () => {
    expect(draftOf(box(`❯\u00a0${dim('[Pasted text #1 +12 lines]')} and then this`))).toBe(
      '[Pasted text #1 +12 lines] and then this',
    );
  });

  it('joins rows that were wrapped and keeps newlines the user typed', () => {
    expect(draftOf(box('❯\u00a0first line', '  second line'))).toBe('first line\nsecond line');
    const long = 'word '.repeat(15).trim(); // 74 characters: "next" cannot follow on an 80-column row
    expect(draftOf(box(`❯\u00a0${long}`, '  next'))).toBe(`${long} next`);
  });

  it('accepts the older `>` prompt and bash mode `!`', () => {
    expect(draftOf(box('> hello there'))).toBe('hello there');
    // Bash mode keeps its `!` in the draft: it is what was typed, and an empty bash box is a draft.
    expect(draftOf(box('! ls -la'))).toBe('!ls -la');
    expect(draftOf(box('! '))).toBe('!');
  });

  it('is not found when the rows between the rules do not start with the prompt', () => {
    expect(findInputBox(parseScreen(box(' ☐ Color Theme', '❯ 1. Red')))).toBeNull();
  });
});
