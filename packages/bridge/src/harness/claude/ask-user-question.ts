import type { Dialog } from '@collie/protocol';

/**
 * Claude's AskUserQuestion dialog, read from its rows (escapes stripped).
 *
 * What the screens show (Claude Code 2.1, July–August 2026):
 * - a tab bar above the question: ` ☐ Color Theme ` for one single-select question, or
 *   `← ☒ Focus area  ☐ Scope  ☐ Workflow  ✔ Submit  →` when there is more than one question
 *   or the answers need a Submit step (multi-select). `☒` marks an answered question.
 * - numbered options, the focused one behind `❯`, then `Type something.` and, under a rule,
 *   `Chat about this`.
 * - multi-select options carry `[ ]` / `[✔]` boxes; preview questions draw a `┌…┐` mockup to
 *   the right of the options and a `Notes:` row; the Submit tab shows `Review your answers`.
 */
export type QuestionDialog = Extract<Dialog, 'select' | 'multiselect' | 'wizard' | 'review' | 'preview'>;

const TAB_MARK = /(?:^|\s)[☐☒]\s+\S/gu;
const OPTION = /^\s*(?:❯\s*)?\d+\.\s+/u;
const QUESTION_OPTION = /^\s*(?:❯\s*)?\d+\.\s+(?:\[[^\]]\]\s+)?(?:Type something\.?|Chat about this)\s*$/u;
const CHECKBOX_OPTION = /^\s*(?:❯\s*)?\d+\.\s+\[[ ✔✓xX×]\]\s/u;
const PREVIEW_BOX = /^\s*(?:❯\s*)?\d+\.\s.*\s┌─+┐\s*$/u;
const NOTES_ROW = /^\s+Notes:\s/u;
const NOTES_HINT = /\bn to add notes\b/u;
const REVIEW = /^\s*(?:Review your answers|Ready to submit your answers\?)\s*$/u;

/** Count the question tabs (answered or not) on a tab-bar row; Submit is not a question. */
function questionTabs(text: string): number {
  return [...text.matchAll(TAB_MARK)].length;
}

function isTabBar(text: string): boolean {
  const t = text.trim();
  if (t === '' || OPTION.test(t)) return false;
  // The row opens with a tab (after the `←` scroll arrow when there is one).
  const rest = t.startsWith('←') ? t.slice(1).trimStart() : t;
  return /^[☐☒✔]\s/u.test(rest) && questionTabs(rest) > 0;
}

/**
 * Classify the AskUserQuestion dialog in `rows` (the bottom of the screen), or return null
 * when the rows show none.
 */
export function readQuestionDialog(rows: readonly string[]): QuestionDialog | null {
  const tabBar = findLast(rows, isTabBar);
  // Its own chrome, not the key hints: Claude's pickers share `Enter to select · ↑/↓ to navigate`.
  const asks = tabBar !== undefined || rows.some((r) => QUESTION_OPTION.test(r) || REVIEW.test(r));
  if (!asks) return null;

  // The Submit tab is focused: the question pages give way to a review of the answers.
  if (rows.some((r) => REVIEW.test(r))) return 'review';
  const tabs = tabBar === undefined ? 0 : questionTabs(tabBar);
  if (tabs >= 2) return 'wizard';
  if (rows.some((r) => PREVIEW_BOX.test(r) || NOTES_ROW.test(r) || NOTES_HINT.test(r))) return 'preview';
  if (rows.some((r) => CHECKBOX_OPTION.test(r))) return 'multiselect';
  return 'select';
}

function findLast(rows: readonly string[], test: (row: string) => boolean): string | undefined {
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i];
    if (row !== undefined && test(row)) return row;
  }
  return undefined;
}
