/** One row of an input box: its typed text and the column where that text starts. */
export interface BoxRow {
  text: string;
  column: number;
}

/**
 * Columns a wrap may leave unused at a row's end: the box's side padding and the cursor cell.
 * A break with more room than this to spare was not a wrap.
 */
const WRAP_SLACK = 3;

/**
 * Join the rows of a soft-wrapping input box back into the text as typed.
 *
 * Word wrap breaks a row only when the next word does not fit, and swallows the space there.
 * So a break where the next row's first word would clearly have fitted on the row above was a
 * newline the user typed (kept as `\n`); every other break is a wrap (joined with one space).
 * Leading and trailing blank rows are dropped; the result is trimmed.
 *
 * @example
 * joinRows([{ text: 'a long line that', column: 2 }, { text: 'wrapped', column: 2 }], 20)
 * // 'a long line that wrapped'
 */
export function joinRows(rows: readonly BoxRow[], width: number): string {
  let out = '';
  let prevEnd = -1;
  let prevBlank = true;
  for (const row of rows) {
    const text = row.text.trimEnd();
    if (out === '') {
      if (text.trim() === '') continue;
      out = text.trimStart();
    } else if (text.trim() === '') {
      out += '\n';
    } else if (prevBlank) {
      out += '\n' + text;
    } else {
      const firstWord = text.trimStart().split(/\s/u)[0] ?? '';
      const fits = prevEnd + 1 + length(firstWord) <= width - WRAP_SLACK;
      out += fits ? '\n' + text : ' ' + text.trimStart();
    }
    prevBlank = text.trim() === '';
    prevEnd = row.column + length(text);
  }
  return out.trim();
}

/** Length in code points, close enough to terminal cells for the wrap test. */
function length(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
