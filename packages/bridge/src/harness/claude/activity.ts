import { lastNonEmpty, type StyledLine } from '../screen/styled-line';

/** Glyphs Claude cycles through in its turn spinner (`*` where the terminal lacks the others). */
const GLYPHS = '·✢✳✶✻✽*';

/**
 * A running turn: spinner glyph, an activity word ending in an ellipsis, then an optional
 * parenthesised timer, e.g. `✢ Puzzling… (3m 3s · ↓ 9.2k tokens)`. Older builds add
 * `· esc to interrupt` inside the parentheses.
 */
const SPINNER = new RegExp(`^\\s*[${GLYPHS}]\\s+[^\\s…][^…]{0,160}…(?:\\s*\\(.*\\))?\\s*$`, 'u');

/** The same glyph with a past-tense summary, `✻ Crunched for 19m 37s`: the turn is over. */
const FINISHED = new RegExp(`^\\s*[${GLYPHS}]\\s+\\S+ for \\d`, 'u');

/** Printed by every Claude build that shows an interrupt hint while a turn runs. */
const INTERRUPT_HINT = /\besc to interrupt\b/iu;

/** How far above the input box the spinner may sit (a task list can hang below it). */
const SEARCH_ROWS = 30;

/**
 * Whether a turn is running: the spinner line sits just above the input box (or above the
 * screen's end when the box is not drawn), below the last finished-turn summary.
 */
export function isTurnRunning(lines: readonly StyledLine[], boxTop: number | null): boolean {
  const from = (boxTop ?? lastNonEmpty(lines) + 1) - 1;
  const to = Math.max(0, from - SEARCH_ROWS);
  for (let i = from; i >= to; i--) {
    const text = lines[i]?.text ?? '';
    if (INTERRUPT_HINT.test(text) || SPINNER.test(text)) return true;
    if (FINISHED.test(text)) return false;
  }
  return false;
}
