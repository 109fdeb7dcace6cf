import { joinRows, type BoxRow } from '../screen/join-rows';
import { sliceLine, typedText, type StyledLine } from '../screen/styled-line';

/**
 * oh-my-pi's composer (17; 18 differs at its edges, see `isTopEdge`) is a rounded box whose top edge carries the status line
 * (`╭── π > ⬢ Auto > …/omp-sandbox > ⑂ master > ◫ 11.5%/200K ⟲ > (sub) ▶────╮`) and whose
 * bottom edge carries the text being typed (`╰─ list the files in this repo ─╯`). Rows of a
 * longer draft sit between the edges as `│ … │`.
 */
export interface Composer {
  /** Index of the top edge. */
  top: number;
  /** Index of the bottom edge. */
  bottom: number;
  /** The rows holding text, with their borders cut off. */
  rows: StyledLine[];
  /** Width of the box in characters. */
  width: number;
}

/**
 * The status line ends its segments with `▶`; a tool-output box or dialog has none. omp 17 draws
 * it inside the box's top edge (`╭── π > … ▶───╮`); omp 18 draws it as a bare row over the box
 * (` π > ⬢ Fake Coder > … ▶─0.0%───128K─`).
 */
function isTopEdge(text: string): boolean {
  if (text.startsWith('╭─') && text.endsWith('╮') && text.includes('▶')) return true;
  return /^π > .*▶/u.test(text);
}
/** The bottom edge holding the typed text: `╰─ text ─╯` (17), or `╰─ text` with no right corner (18). */
const BOTTOM_EDGE = /^╰─(.*?)(?:─╯)?$/u;
const SIDE_ROW = /^│(.*)│$/u;
/** A draft of a dozen rows is already unusual; a box taller than this is something else. */
const MAX_ROWS = 40;

/** Find the lowest composer on screen, or null when none is drawn (a full-screen picker). */
export function findComposer(lines: readonly StyledLine[]): Composer | null {
  for (let top = lines.length - 1; top >= 0; top--) {
    const edge = (lines[top]?.text ?? '').trim();
    if (!isTopEdge(edge)) continue;
    const rows: StyledLine[] = [];
    for (let i = top + 1; i < lines.length && i <= top + MAX_ROWS; i++) {
      const line = lines[i] as StyledLine;
      const inner = cutBorders(line);
      if (inner === null) break;
      rows.push(inner.line);
      if (inner.bottom) return { top, bottom: i, rows, width: [...edge].length };
    }
  }
  return null;
}

/** The text typed into the composer (faint placeholder text excluded), or null when empty. */
export function readComposerDraft(composer: Composer): string | null {
  const rows: BoxRow[] = composer.rows.map((line) => ({ text: typedText(line), column: 3 }));
  const text = joinRows(rows, composer.width - 2);
  return text === '' ? null : text;
}

function cutBorders(line: StyledLine): { line: StyledLine; bottom: boolean } | null {
  const start = line.text.search(/\S/u);
  if (start < 0) return null;
  const end = line.text.trimEnd().length;
  const trimmed = line.text.slice(start, end);
  // Cut the border and the one cell of padding beside it on each side.
  if (BOTTOM_EDGE.test(trimmed)) return { line: padded(line, start + 2, trimmed.endsWith('─╯') ? end - 2 : end), bottom: true };
  if (SIDE_ROW.test(trimmed)) return { line: padded(line, start + 1, end - 1), bottom: false };
  return null;
}

function padded(line: StyledLine, from: number, to: number): StyledLine {
  const start = line.text[from] === ' ' ? from + 1 : from;
  const end = to > start && line.text[to - 1] === ' ' ? to - 1 : to;
  return sliceLine(line, start, Math.max(start, end));
}
