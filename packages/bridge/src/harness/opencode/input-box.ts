import { joinRows, type BoxRow } from '../screen/join-rows';
import { typedText, type StyledLine } from '../screen/styled-line';

/**
 * OpenCode 1.18's prompt box (opentui), as captured in tmux:
 *
 * ```
 * ┃
 * ┃  fix the failing test          the textarea (one or more rows)
 * ┃
 * ┃  Build · Fake Coder Fake       agent · model · provider
 * ╹▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
 *    ⬝⬝⬝■■■■■  esc interrupt      … ctrl+p commands     the status bar, below the box
 * ```
 *
 * On the start screen the same box sits centred under the logo. A dialog (permission,
 * question) replaces the box and the status bar.
 */
export interface InputBox {
  /** Index of the `╹▀▀▀` row closing the box. */
  bottom: number;
  /** The textarea rows (agent row excluded), their left border and padding cut. */
  rows: BoxRow[];
  /** Columns the textarea may fill. */
  width: number;
}

const BOTTOM_EDGE = /^(\s*)╹▀+\s*$/u;
const SIDE = '┃';
/** A draft of a dozen rows is already unusual; a box taller than this is something else. */
const MAX_ROWS = 40;

/**
 * The placeholder of an empty box. It is drawn in a muted colour, not faint, and colours
 * follow the user's theme, so it is known by its words: `Ask anything... "Fix broken tests"`
 * (an example picked at random) or, in shell mode, `Run a command... "ls -la"`.
 */
const PLACEHOLDER = /^(?:Ask anything|Run a command)(?:…|\.\.\.) ".*"$/u;

/** Find the lowest prompt box on screen, or null when none is drawn. */
export function findInputBox(lines: readonly StyledLine[]): InputBox | null {
  for (let bottom = lines.length - 1; bottom > 0; bottom--) {
    const edge = BOTTOM_EDGE.exec(lines[bottom]?.text ?? '');
    if (!edge) continue;
    const column = (edge[1] ?? '').length;
    const rows: BoxRow[] = [];
    for (let i = bottom - 1; i >= 0 && bottom - i <= MAX_ROWS; i--) {
      const line = lines[i] as StyledLine;
      if (line.text[column] !== SIDE) break;
      rows.unshift({ text: typedText(line).slice(column + 1).trimStart(), column: column + 3 });
    }
    // The lowest side row holds the agent and model, not text.
    if (rows.length < 2) return null;
    const width = (lines[bottom]?.text ?? '').trimEnd().length - column - 4;
    return { bottom, rows: rows.slice(0, -1), width: Math.max(1, width) };
  }
  return null;
}

/** The text typed into the box, or null when it is empty (or shows only its placeholder). */
export function readInputDraft(box: InputBox): string | null {
  const text = joinRows(box.rows, box.width);
  return text === '' || PLACEHOLDER.test(text) ? null : text;
}
