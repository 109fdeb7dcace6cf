import { joinRows } from '../screen/join-rows';
import { isRule } from '../screen/rules';
import { typedText, type StyledLine } from '../screen/styled-line';

/**
 * pi 0.73's editor, as captured in tmux: two full-width `─` rules with the typed rows between
 * them (none when it is empty: the rules touch), and the footer under it: the directory, the
 * token stats and context use (`↑1.4k ↓16 1.1%/128k (auto)   fake-coder`), at most a row of
 * extension statuses. An extension's dialog (`ctx.ui.select`, `ctx.ui.custom`) is drawn between
 * the same rules, and so is a picker the user opened (`/model`); the slash-command popup is drawn
 * under the lower rule, over the footer.
 */
export interface Editor {
  top: number;
  bottom: number;
  /** The slash-command popup drawn under the editor (`→ settings   Open settings menu`, `(1/21)`): a menu. */
  popup: boolean;
  /** The rows between the rules. */
  inner: StyledLine[];
  width: number;
}

/** Footer rows under the editor: directory, stats, and at most two rows of statuses. */
const FOOTER_ROWS = 4;
/** A draft or a dialog taller than this is something else. */
const MAX_INNER = 40;

/** The popup's rows under the editor: the pointer on one command, its counter. */
const POPUP_ROW = /^(?:→ | {2})\S+\s{2,}\S|^\s*\(\d+\/\d+\)\s*$/u;
const POPUP_ROWS = 16;

/** The lowest editor on screen, or null. */
export function findEditor(lines: readonly StyledLine[]): Editor | null {
  let below = 0;
  let popupRows = 0;
  let bottom = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    const text = lines[i]?.text ?? '';
    if (isRule(text)) {
      bottom = i;
      break;
    }
    if (POPUP_ROW.test(text)) popupRows++;
    if (text.trim() !== '' && ++below > FOOTER_ROWS + POPUP_ROWS) return null;
  }
  const popup = popupRows > 0 && lines.slice(bottom + 1).some((l) => l.text.startsWith('→ '));
  if (below > FOOTER_ROWS && !popup) return null;
  if (bottom < 1) return null;
  for (let top = bottom - 1; top >= 0 && bottom - top - 1 <= MAX_INNER; top--) {
    if (isRule(lines[top]?.text ?? '')) {
      return { top, bottom, popup, inner: lines.slice(top + 1, bottom), width: [...(lines[bottom]?.text.trim() ?? '')].length };
    }
  }
  return null;
}

/** The text typed into the editor, or null when it is empty. */
export function readEditorDraft(editor: Editor): string | null {
  const rows = editor.inner.map((line) => {
    const text = typedText(line);
    return { text: text.trimStart(), column: text.length - text.trimStart().length };
  });
  const text = joinRows(rows, editor.width);
  return text === '' ? null : text;
}
