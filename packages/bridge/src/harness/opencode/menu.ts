import type { StyledLine } from '../screen/styled-line';
import type { InputBox } from './input-box';

/**
 * The menus a user opens in OpenCode 1.18, none of them the agent asking:
 *
 * - the slash-command popup, drawn in the prompt box over the textarea that holds the typed
 *   `/…`: rows `┃ /models     Switch model   ┃`;
 * - a dialog over the screen's middle (`/models`' `Select model`, the Ctrl+P palette
 *   `Commands`, `/sessions`, `/themes`, …): its title row ends in `esc` at the right, a
 *   `Search` field under it, and it hides part of the prompt box.
 */
const POPUP_ROW = /^\/[\w:.-]+\s{2,}\S/u;
const MODAL_HEAD = /^\s+\S.*?\s{2,}esc\s*$/u;

/** True when a menu the user opened is on screen. */
export function isMenu(lines: readonly StyledLine[], box: InputBox | null): boolean {
  if (box) {
    const typed = box.rows.filter((r) => r.text.trim() !== '' && !POPUP_ROW.test(r.text)).at(-1)?.text.trim() ?? '';
    if (typed.startsWith('/') && box.rows.some((r) => POPUP_ROW.test(r.text))) return true;
  }
  return lines.some((l) => MODAL_HEAD.test(l.text) && !l.text.trimStart().startsWith('┃'));
}
