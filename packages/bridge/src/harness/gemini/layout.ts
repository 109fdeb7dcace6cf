import type { Dialog } from '@collie/protocol';
import { lastNonEmpty, type StyledLine } from '../screen/styled-line';

/**
 * Where things are on a Gemini CLI 0.61 screen (Ink). Bottom up: the footer (workspace,
 * sandbox, model), the input box between a `▄▄▄` and a `▀▀▀` edge (`> ` then the text, or its
 * grey placeholder), `Shift+Tab to accept edits`, a rule, the running row while a turn runs
 * (`⠋ Thinking... (esc to cancel, 3s)`), then the transcript, where each user message sits in
 * such a box too. A tool approval, the folder-trust question or the `ask_user` tool's
 * `Answer Questions` box (several questions: tabs, the last one `Review your answers:`) is a rounded box (`│` sides) that takes the input box's and footer's place.
 */

/** A numbered option inside a dialog box, the pointer `●` on the chosen one. */
export const OPTION = /^(?:●\s*)?(\d+)\.\s+(\S.*?)\s*$/u;
/** The prompt row. */
export const PROMPT = /^\s*(?:│\s*)?[>!*](?:\s|$)/u;
const PROMPT_ROWS = 12;
const DIALOG_ROWS = 60;

/** Tool approval: "Allow execution of [Shell]?", "Apply this change?", "Do you want to proceed?". */
const CONFIRM_ASK = /^(?:Allow execution(?: of)?\b.*\?|Apply this change\?|Do you want to proceed\?)$/u;
const CONFIRM_OPTION = /^(?:Allow once|Allow for this session|Yes, allow once|Yes, allow always|No, suggest changes)\b/u;
/** Folder trust: "Do you trust the files in this folder?" (0.61) or "Do you trust this folder?". */
const TRUST_ASK = /^Do you trust (?:the files in )?this folder\?$/u;
const TRUST_OPTION = /^Trust (?:folder|parent folder)\b/u;
/** The `ask_user` tool's box: this heading, then (for several questions) a row of tabs. */
export const QUESTION_HEAD = /^Answer Questions$/u;
/** The tabs of a multi-question box: `← □ Colour │ □ Size │ ≡ Review →`. */
export const QUESTION_TABS = /^←\s.*\s→$/u;
/** The heading of the multi-question box's last tab, which lists the answers. */
export const REVIEW_HEAD = /^Review your answers:$/u;

/** A row's text inside any number of box sides (`│ … │`), trimmed. */
export function unboxed(text: string): string {
  let t = text.trim();
  for (let k = 0; k < 4 && t.startsWith('│'); k++) t = t.slice(1).trim();
  for (let k = 0; k < 4 && t.endsWith('│'); k++) t = t.slice(0, -1).trim();
  return t;
}

/** An open dialog: its kind, and the rows of its box from the top edge to the bottom edge. */
export interface GeminiDialog {
  kind: Extract<Dialog, 'permission' | 'trust' | 'select' | 'wizard' | 'review'>;
  top: number;
  bottom: number;
}

/**
 * The dialog box at the bottom of the screen, if one is open. It is open when nothing but its
 * own box (and a restart notice) is drawn below it: the input box is hidden meanwhile.
 */
export function findDialog(lines: readonly StyledLine[]): GeminiDialog | null {
  // A notice box pinned under the dialog (`update available`, a warning) is passed over: up to
  // two boxes are tried from the bottom.
  let end = lastNonEmpty(lines);
  for (let box = 0; box < 3 && end >= 0; box++) {
    const bottom = boxBottom(lines, end);
    if (bottom < 0) return null;
    const dialog = dialogAt(lines, bottom);
    if (dialog) return dialog;
    end = boxTop(lines, bottom) - 1;
  }
  return null;
}

/** The bottom edge `╰─╯` among the last rows up to `end`, or -1. */
function boxBottom(lines: readonly StyledLine[], end: number): number {
  for (let i = end; i >= 0 && i > end - 4; i--) {
    if (/^\s*╰─+╯\s*$/u.test(lines[i]?.text ?? '')) return i;
  }
  return -1;
}

/** The top edge `╭─╮` of the box whose bottom is `bottom` (its first row when none is drawn). */
function boxTop(lines: readonly StyledLine[], bottom: number): number {
  for (let i = bottom - 1; i >= 0 && i > bottom - DIALOG_ROWS; i--) {
    if (/^\s*╭─+╮\s*$/u.test(lines[i]?.text ?? '')) return i;
  }
  return -1;
}

/** The dialog whose box ends at `bottom`, or null when that box asks nothing. */
function dialogAt(lines: readonly StyledLine[], bottom: number): GeminiDialog | null {
  let ask: 'permission' | 'trust' | null = null;
  let option = false;
  let numbered = false;
  let tabs = false;
  let review = false;
  for (let i = bottom - 1; i >= 0 && i > bottom - DIALOG_ROWS; i--) {
    const row = lines[i]?.text ?? '';
    const text = unboxed(row);
    if (/^\s*╭─+╮\s*$/u.test(row)) return ask && option ? { kind: ask, top: i, bottom } : null;
    // The question box starts right under its top edge; its options are any numbered rows.
    if (QUESTION_HEAD.test(text) && /^\s*╭─+╮\s*$/u.test(lines[i - 1]?.text ?? '')) {
      if (tabs && review) return { kind: 'review', top: i - 1, bottom };
      return numbered || tabs ? { kind: tabs ? 'wizard' : 'select', top: i - 1, bottom } : null;
    }
    const m = OPTION.exec(text);
    if (m) numbered = true;
    if (QUESTION_TABS.test(text)) tabs = true;
    if (REVIEW_HEAD.test(text)) review = true;
    if (m && (CONFIRM_OPTION.test(m[2] ?? '') || TRUST_OPTION.test(m[2] ?? ''))) option = true;
    if (CONFIRM_ASK.test(text)) ask ??= 'permission';
    if (TRUST_ASK.test(text)) ask = 'trust';
  }
  return null;
}

/** Index of the input box's prompt row, or -1 when none is drawn near the bottom. */
export function findPrompt(lines: readonly StyledLine[]): number {
  const end = lastNonEmpty(lines);
  for (let i = end; i >= 0 && i > end - PROMPT_ROWS; i--) {
    if (PROMPT.test(lines[i]?.text ?? '')) return i;
  }
  return -1;
}
