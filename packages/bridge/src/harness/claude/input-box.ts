import { joinRows, type BoxRow } from '../screen/join-rows';
import { findRuledBox, type RuledBox } from '../screen/rules';
import type { StyledLine } from '../screen/styled-line';

/**
 * The first row of Claude's input box: the prompt glyph at the left edge, then a space.
 * Claude 2.1 draws `❯` followed by a no-break space, and `!` in bash mode; `>`, the glyph of
 * earlier builds, is accepted too.
 */
const PROMPT_ROW = /^\s{0,2}[❯>!](?:\s|$)/u;

/** Continuation rows are indented by the width of the prompt (two cells). */
const CONTINUATION_PAD = 2;

/**
 * Placeholder tokens Claude puts into the box for pasted content. They are the user's input
 * even if a theme draws them faint, and so is any text typed after them.
 */
const INPUT_TOKEN = /\[(?:Pasted text #\d+[^\]]*|Image #\d+[^\]]*)\]/gu;

/**
 * Rows Claude may draw under the box: the status line, mode line and the background-agents
 * list (one row per agent), or the autocomplete list while a command is typed.
 */
const MAX_FOOTER_ROWS = 40;

/** Claude's input box: the lowest pair of rules whose first row is the prompt. */
export function findInputBox(lines: readonly StyledLine[]): RuledBox | null {
  return findRuledBox(lines, { firstRow: (line) => PROMPT_ROW.test(line.text), maxBelow: MAX_FOOTER_ROWS });
}

/**
 * The text typed into the box, or null when it is empty or shows only a ghost suggestion
 * (Claude draws suggestions faint, SGR 2, in the same place as typed text).
 */
export function readDraft(box: RuledBox): string | null {
  const rows: BoxRow[] = box.inner.map((line, index) => {
    if (index === 0) {
      const prefix = PROMPT_ROW.exec(line.text)?.[0].length ?? 0;
      return { text: typedWithTokens(line, prefix), column: prefix };
    }
    const pad = leadingSpaces(line.text, CONTINUATION_PAD);
    return { text: typedWithTokens(line, pad), column: pad };
  });
  const text = joinRows(rows, box.width);
  // Bash mode (`!` typed at the start of an empty box) draws `!` as the prompt and takes it
  // out of the text. It is still what the user typed: an empty bash-mode box holds `!`, and
  // a send that types `!ls` finds `!ls` in the box (seen on 2.1.334, 2026-12-03).
  const bash = /^\s{0,2}!/u.test(box.inner[0]?.text ?? '');
  if (bash) return `!${text}`;
  return text === '' ? null : text;
}

/** The non-faint characters of `line` from `start` on, keeping paste tokens whole. */
function typedWithTokens(line: StyledLine, start: number): string {
  const keep = new Array<boolean>(line.text.length).fill(false);
  for (const match of line.text.matchAll(INPUT_TOKEN)) {
    for (let i = match.index; i < match.index + match[0].length; i++) keep[i] = true;
  }
  let out = '';
  for (let i = start; i < line.text.length; i++) {
    if (!line.dim[i] || keep[i]) out += line.text[i];
  }
  return out;
}

function leadingSpaces(text: string, max: number): number {
  let n = 0;
  while (n < max && n < text.length && /\s/u.test(text[n] ?? '')) n++;
  return n;
}
