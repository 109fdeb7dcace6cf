import type { Dialog } from '@collie/protocol';
import { bottomTexts, type StyledLine } from '../screen/styled-line';
import { readQuestionDialog } from './ask-user-question';
import { isSetupScreen } from './setup';

/** A dialog can fill the screen (a long plan), but never more than this many rows. */
const DIALOG_ROWS = 120;
/** Key hints sit in the last few rows of a picker. */
const HINT_ROWS = 8;

const OPTION = /^\s*(?:❯\s*)?\d+\.\s+\S/u;
const FOCUSED = /^\s*❯\s+\S/u;

/**
 * Folder trust at startup: "Quick safety check: Is this a project you created or one you
 * trust?" with `1. Yes, I trust this folder` (2.1.201), the same choices without numbers and
 * `❯ No, exit` first (2.1.334), or "Do you trust the files in this folder?" (older builds).
 */
const TRUST = [
  /\bYes, I trust this folder\b/u,
  /\bDo you trust the files in this folder\?/u,
  /\bClaude Code'?ll be able to read, edit, and execute files here\b/u,
];

/**
 * Plan approval (ExitPlanMode): "Claude has written up a plan and is ready to execute. Would
 * you like to proceed?", options such as `Yes, and use auto mode`, `Yes, manually approve
 * edits`, `Tell Claude what to change`, and the hint `shift+tab to approve with this feedback`.
 * With no plan file written, 2.1.334 asks "Exit plan mode?" over `1. Yes, and switch to …`.
 */
const PLAN = [
  /\bClaude has written up a plan\b/u,
  /^\s*Exit plan mode\?\s*$/u,
  /\bHere is Claude's plan:/u,
  /\bshift\+tab to approve with this feedback\b/u,
  /^\s*(?:❯\s*)?\d+\.\s+Yes, (?:and use auto mode|manually approve edits|clear context|and auto-accept edits)/u,
];

/**
 * A tool permission: "Do you want to create hello.txt?" / "Do you want to proceed?" over
 * numbered options starting `1. Yes`, one of them a "don't ask again" variant
 * (`Yes, allow all edits during this session`), and the hint `Esc to cancel · Tab to amend`.
 */
const PERMISSION_QUESTION = /^\s*Do you want to .+\?\s*$/u;
const PERMISSION_SIGNS = [/\bTab to amend\b/u, /\bdon'?t ask again\b/iu, /\ballow all edits during this session\b/iu];
const YES_OPTION = /^\s*(?:❯\s*)?1\.\s+Yes\b/u;

/**
 * A picker the user opened (`/model` and its kind): a focused `❯` row and key hints such as
 * `Enter to set as default · s to use this session only · Esc to cancel`.
 */
const PICKER_HINT = new RegExp(
  [
    'Esc to (?:cancel|exit|close|go back)',
    'Enter to (?:select|confirm|set|continue|choose|apply)',
    '↑/↓ to (?:navigate|select|move)',
  ].join('|'),
  'iu',
);

/**
 * A picker's search field (`│ ⌕ Search… │`): `/resume` in a folder with no sessions draws it over
 * "No sessions in this project yet" with no focused row at all.
 */
const SEARCH_BOX = /^\s*│\s*⌕ Search/u;

/**
 * Read the modal Claude draws in place of its input box, or null when there is none. Call it
 * only when the input box is not on screen: Claude hides the box while a modal is open.
 */
export function readDialog(lines: readonly StyledLine[]): Dialog | null {
  const rows = bottomTexts(lines, DIALOG_ROWS);
  if (isSetupScreen(rows)) return 'setup';
  const hasOptions = rows.some((r) => OPTION.test(r));

  const choices = hasOptions || rows.some((r) => FOCUSED.test(r));
  if (choices && rows.some((r) => TRUST.some((re) => re.test(r)))) return 'trust';
  if (hasOptions && rows.some((r) => PLAN.some((re) => re.test(r)))) return 'plan';

  const question = readQuestionDialog(rows);
  if (question) return question;

  if (
    rows.some((r) => YES_OPTION.test(r)) &&
    rows.some((r) => PERMISSION_QUESTION.test(r) || PERMISSION_SIGNS.some((re) => re.test(r)))
  ) {
    return 'permission';
  }

  const hints = rows.slice(-HINT_ROWS);
  if ((rows.some((r) => FOCUSED.test(r)) || rows.some((r) => SEARCH_BOX.test(r))) && hints.some((r) => PICKER_HINT.test(r))) return 'menu';
  return null;
}
