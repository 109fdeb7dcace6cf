import { lastNonEmpty, type StyledLine } from '../screen/styled-line';

/**
 * The menus a user opens in Codex 0.171, and its info panels. None is the agent asking:
 *
 * - the slash-command popup: rows `  /model         choose what model…` (the selected one
 *   `› /model …`, reverse) stacked over the composer, which holds the typed `/…`;
 * - the pickers (`/model`'s `Select Model and Effort`, `/permissions`'
 *   `Update Model Permissions`, …), drawn in the composer's place over the hint
 *   `enter select · esc back` (older releases: `press enter to select`, `esc to go back`);
 * - the F2 warnings panel (`Warnings · 1 of 2 · Startup`, last row `k keep & next · esc dismiss &
 *   close · ^o copy · ←/→ warning`; 0.156: `esc back · ctrl+o copy · ←/→ warning · ↓ scroll`):
 *   information with the composer hidden, neither a menu nor a question.
 */
const POPUP_ROW = /^(?:›| ) \/[\w:-]+(?:\s{2,}\S.*)?\s*$/u;
const PICKER_HINT = /^\s*(?:press )?enter (?:to )?(?:select|confirm)\b.*\besc\b|^\s*esc to (?:go back|close|cancel)\s*$/iu;
const PANEL_HINT = /\besc (?:dismiss & close|back)\b.*←\/→ warning\b/u;

/** Where a user-opened menu starts (its top row), or -1 when none is open. */
export function findMenu(lines: readonly StyledLine[], composer: number): number {
  // A picker's hint is the last row drawn: any `› ` row above it is history.
  const hint = lastNonEmpty(lines);
  if (hint >= 0 && PICKER_HINT.test(lines[hint]?.text ?? '')) return blockTop(lines, hint);
  // The popup: only over a composer that holds the command being typed.
  if (composer < 0 || !/^›\s*\/\S*\s*$/u.test(lines[composer]?.text ?? '')) return -1;
  // One blank row may separate the popup from the composer.
  const under = (lines[composer - 1]?.text ?? '').trim() === '' ? composer - 1 : composer;
  let top = under;
  while (top > 0 && POPUP_ROW.test(lines[top - 1]?.text ?? '')) top--;
  return top < under ? top : -1;
}

/** True when an info panel (the F2 warnings) has the composer's place: its hint is the last row drawn. */
export function isPanel(lines: readonly StyledLine[]): boolean {
  return PANEL_HINT.test(lines[lastNonEmpty(lines)]?.text ?? '');
}

/** The first row of the menu that ends at `hint`: up past its rows to the blank above its title. */
function blockTop(lines: readonly StyledLine[], hint: number): number {
  let top = hint;
  let gaps = 0;
  for (let i = hint - 1; i >= 0 && hint - i < 40; i--) {
    if ((lines[i]?.text ?? '').trim() === '') {
      if (++gaps > 1) break;
    } else {
      top = i;
      gaps = 0;
    }
  }
  return top;
}
