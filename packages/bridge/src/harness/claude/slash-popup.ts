import type { RuledBox } from '../screen/rules';
import type { StyledLine } from '../screen/styled-line';

/**
 * Claude Code's slash-command popup while `/…` is typed in the box: rows
 * `  ❯ /add-dir                    Add a working directory` (the pointer on one), drawn right
 * over the box's top rule (2.1.334) or under its bottom rule (older builds). A menu the user
 * opened; the `/…` in the box is its filter, and still the box's text.
 */
const POPUP_ROW = /^\s*(?:❯\s*)?\/[\w:.-]+(?:\s+\([\w\s-]+\))?\s{2,}\S/u;

/**
 * Where the popup drawn against `box` starts (the row the transcript ends above: its top row
 * over the box, or the box's top when it is drawn under it), or null when none is open or the
 * box does not hold the command being typed.
 */
export function slashPopupTop(lines: readonly StyledLine[], box: RuledBox, draft: string | null): number | null {
  if (draft === null || !/^\/\S*$/u.test(draft)) return null;
  if (POPUP_ROW.test(lines[box.bottom + 1]?.text ?? '')) return box.top;
  let top = box.top;
  while (top > 0 && POPUP_ROW.test(lines[top - 1]?.text ?? '')) top--;
  return top < box.top ? top : null;
}
