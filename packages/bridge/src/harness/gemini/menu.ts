import { lastNonEmpty, type StyledLine } from '../screen/styled-line';
import { PROMPT, unboxed } from './layout';

/**
 * The menus a user opens in Gemini CLI 0.61, none of them the agent asking:
 *
 * - the slash-command popup under the input box (which holds the typed `/…`): rows
 *   ` clear            Clear the screen…`, a `▼` when more follow, and a `(0/42)` counter;
 * - a dialog the user opened (`/model`'s `Select Model`, `/theme`, `/settings`, …): a rounded
 *   box at the bottom that says how to leave it (`(Press Esc to close)`, `Esc to cancel`) or
 *   points `●` at one of its options, with no question of the agent's in it.
 */
const POPUP_ROW = /^ ?\/?[\w:.-]+(?: \[[\w-]+\])?\s{2,}\S/u;
const POPUP_COUNTER = /^\s*\(\d+\/\d+\)\s*$|^\s*[▲▼]\s*$/u;
const LEAVE = /\bEsc to (?:close|cancel|exit|go back)\b|\(Use Enter to (?:select|apply)\b/iu;
const MENU_ROWS = 40;

/** True when a menu the user opened is on screen. */
export function isMenu(lines: readonly StyledLine[]): boolean {
  return popup(lines) || openedBox(lines);
}

/** The popup: its counter near the bottom, its rows up to the input box's `▀▀▀` edge, the prompt holding `/…` over it. */
function popup(lines: readonly StyledLine[]): boolean {
  const end = lastNonEmpty(lines);
  let i = end;
  while (i > end - 6 && i >= 0 && !POPUP_COUNTER.test(lines[i]?.text ?? '')) i--;
  if (i <= end - 6 || i < 0) return false;
  let rows = 0;
  for (i--; i >= 0 && i > end - MENU_ROWS; i--) {
    const text = lines[i]?.text ?? '';
    if (/^\s*▀+\s*$/u.test(text)) break;
    if (POPUP_ROW.test(text)) rows++;
  }
  const prompt = lines[i - 1]?.text ?? '';
  return rows > 0 && PROMPT.test(prompt) && prompt.replace(PROMPT, '').trim().startsWith('/');
}

/** A rounded box at the bottom (under the input box, or in its place) that the user leaves with Esc. */
function openedBox(lines: readonly StyledLine[]): boolean {
  const end = lastNonEmpty(lines);
  let bottom = -1;
  for (let i = end; i >= 0 && i > end - 4; i--) {
    if (/^\s*╰─+╯\s*$/u.test(lines[i]?.text ?? '')) {
      bottom = i;
      break;
    }
  }
  for (let i = bottom - 1; bottom >= 0 && i >= 0 && i > bottom - MENU_ROWS; i--) {
    const row = lines[i]?.text ?? '';
    if (/^\s*╭─+╮\s*$/u.test(row)) return false;
    if (LEAVE.test(unboxed(row))) return true;
  }
  return false;
}
