import type { Dialog } from '@collie/protocol';
import { lastNonEmpty, type StyledLine } from '../screen/styled-line';

/**
 * Where things are on a Codex 0.171 screen (the Rust TUI, drawn inline, not full-screen).
 * Bottom up: the footer (`? for shortcuts`, or the model and folder), the composer (`› ` at
 * the left edge, its example prompt drawn faint), the status row while the model is asked
 * (`• Working (3s • esc to interrupt)`), then the transcript, where each user message is a
 * `› ` row whose `›` is faint and each finished turn ends with `Worked for 8s • 17:14`.
 * A dialog (the command approval, folder trust) takes the composer's place.
 */

/** A numbered option of a dialog, the pointer `›` on the chosen one. */
export const OPTION = /^\s*(?:›\s*)?(\d+)\.\s+(\S.*?)\s*$/u;
/** The composer row. Dialog options also start with `›`, but numbered. */
const COMPOSER = /^›(?:\s|$)/u;
const COMPOSER_ROWS = 14;

/** The command approval: the ask, its options, and the hint under them. */
const APPROVAL_ASK = /^\s*Would you like to (?:run the following command|make the following edits|grant these permissions|allow\b.*)\??\s*$/u;
const APPROVAL_HINT = /^\s*Press enter to confirm or esc to cancel\s*$/u;
/** Folder trust: "Trust this folder? Codex can read…" (0.171) or "Do you trust the contents of this directory?" (older). */
const TRUST_ASK = /\bTrust this folder\?|\bDo you trust the contents of this directory\?/u;
const TRUST_HINT = /^\s*enter continue · esc (?:back|quit)\s*$|^\s*Press enter to continue\s*$/u;
/**
 * The question tool (`request_user_input`): `Question 1/2 (2 unanswered)`, the question, its
 * options (`› 1. Black (Recommended)  The classic coat`) and this hint row.
 */
export const QUESTION_HEAD = /^\s*Question (\d+)\/(\d+)\b/u;
const QUESTION_HINT = /^\s*tab to add notes \| enter to submit (?:answer|all)\b/u;

/** A dialog on screen: its kind, and the rows from its top to its hint. */
export interface CodexDialog {
  kind: Extract<Dialog, 'permission' | 'trust' | 'select' | 'wizard'>;
  /** Index of the asking row (approval), the first row of the box (trust), the `Question n/m` row. */
  top: number;
  /** Index of the hint row under the options. */
  hint: number;
}

/** The dialog at the bottom of the screen, if one is open: its hint is the last row drawn. */
export function findDialog(lines: readonly StyledLine[]): CodexDialog | null {
  const end = lastNonEmpty(lines);
  const hint = end;
  const text = (i: number) => lines[i]?.text ?? '';
  const approval = APPROVAL_HINT.test(text(hint));
  const trust = TRUST_HINT.test(text(hint));
  const question = QUESTION_HINT.test(text(hint));
  if (!approval && !trust && !question) return null;
  let options = 0;
  for (let i = hint - 1; i >= 0 && i > hint - 60; i--) {
    const row = text(i);
    if (OPTION.test(row)) options++;
    const head = question ? QUESTION_HEAD.exec(row) : null;
    if (head) return options > 0 ? { kind: Number(head[2]) > 1 ? 'wizard' : 'select', top: i, hint } : null;
    if (approval && APPROVAL_ASK.test(row)) return options > 0 ? { kind: 'permission', top: i, hint } : null;
    if (trust && TRUST_ASK.test(row)) return options > 0 ? { kind: 'trust', top: topOfBlock(lines, i), hint } : null;
    // Another composer under the ask means the ask is history, not open.
    if (COMPOSER.test(row) && !OPTION.test(row)) return null;
  }
  return null;
}

/** The first row of the paragraph block holding row `i` (trust's title sits two blocks up). */
function topOfBlock(lines: readonly StyledLine[], i: number): number {
  let top = i;
  let gaps = 0;
  for (let j = i - 1; j >= 0 && gaps < 2; j--) {
    if ((lines[j]?.text ?? '').trim() === '') gaps++;
    else top = j;
  }
  return top;
}

/** Index of the composer row, or -1 when none is drawn near the bottom. */
export function findComposer(lines: readonly StyledLine[]): number {
  const end = lastNonEmpty(lines);
  for (let i = end; i >= 0 && i > end - COMPOSER_ROWS; i--) {
    const line = lines[i] as StyledLine;
    // A user message in the transcript has a faint `›`; the composer's is bold.
    if (COMPOSER.test(line.text) && !OPTION.test(line.text) && !line.dim[0]) return i;
  }
  return -1;
}

/** A row of the transcript that starts a user message (`›` drawn faint). */
export function isUserMessage(line: StyledLine): boolean {
  return COMPOSER.test(line.text) && line.dim[0] === true;
}
