import type { Dialog } from '@collie/protocol';
import { lastNonEmpty, type StyledLine } from '../screen/styled-line';
import type { Composer } from './composer';

/** How far up from the bottom a dialog may reach. */
const DIALOG_ROWS = 80;
/** Key hints are the last rows of a picker. */
const HINT_ROWS = 8;

/**
 * The ask tool's dialog (oh-my-pi 17 and 18; `Ask (Ns)` while its timeout counts down): a box titled `╭─ Ask ─…╮`, the question, options behind
 * `○` (single) or `☐` (multi), and a hint row `Enter select · n note · ↑/↓ move · Esc cancel`
 * or `Space/Enter toggle · …` (18: `Space toggle · Enter submit · …`). With a Submit step a tab row (`toppings    Submit`) heads it,
 * and the Submit page reads `Review answers` / `Enter submit · ↑/↓ scroll · Esc cancel`.
 */
const ASK_TITLE = /^╭─ Ask(?: \(\d+s\))? ─+╮$/u;
const ASK_HINT = /\b(?:Enter select · n note|Space\/Enter toggle|Space toggle · Enter submit|Enter submit · ↑\/↓ scroll)\b/u;
const REVIEW = /^(?:Review answers|Enter submit · ↑\/↓ scroll\b.*)$/u;
const MULTI = /^(?:❯\s+)?[☐☑☒]\s|\bSpace\/Enter toggle\b|\bSpace toggle · Enter submit\b/u;

/**
 * A picker the user opened: a focused `❯` entry (at a row's start, or at the start of a
 * column such as the settings list `│ ❯ Dark Theme`) and an `Esc close` / `Esc cancel` hint.
 */
const FOCUSED = /(?:^|│)\s*❯\s*\S/u;
const PICKER_HINT = /\bEsc (?:to )?(?:close|cancel)\b/u;

/** Read oh-my-pi's open dialog, or null. `composer` is the composer found on screen, if any. */
export function readOmpDialog(lines: readonly StyledLine[], composer: Composer | null): Dialog | null {
  const end = lastNonEmpty(lines);
  if (end < 0) return null;
  const start = Math.max(0, end - DIALOG_ROWS + 1);
  const rows = lines.slice(start, end + 1).map((l) => l.text.trim());

  if (approvalAt(rows) >= 0) return 'permission';
  const ask = askBox(rows);
  if (ask) return classifyAsk(ask);

  // The slash-command palette opens under the composer, its focused entry behind `❯`.
  if (composer) {
    const below = lines.slice(composer.bottom + 1, end + 1);
    if (below.some((l) => FOCUSED.test(l.text))) return 'menu';
  }
  // A full-screen or boxed picker (models, settings, resume) with its hint row at the bottom;
  // a composer drawn under that hint means the hint is old transcript, not an open picker.
  const hintsFrom = Math.max(0, rows.length - HINT_ROWS);
  const hintAt = findLastIndex(rows.slice(hintsFrom), (r) => PICKER_HINT.test(r));
  if (hintAt < 0) return null;
  const hintRow = start + hintsFrom + hintAt;
  const composerBelow = composer !== null && composer.bottom > hintRow;
  return !composerBelow && rows.some((r) => FOCUSED.test(stripSide(r))) ? 'menu' : null;
}

/**
 * omp 18's tool approval (`tools.approvalMode` other than `yolo`): a box `╭─ Allow tool: bash ─╮`,
 * `Command: rm -rf build`, `❯ Approve` / `Deny`, `up/down navigate  enter select  esc cancel`,
 * drawn under the composer's place at the bottom. Index of its title row, or -1.
 */
export const APPROVAL_TITLE = /^╭─ Allow tool: (\S+) ─+╮$/u;
export const APPROVAL_HINT = /^│?\s*up\/down navigate\s+enter select\s+esc cancel\b/u;
export function approvalAt(rows: readonly string[]): number {
  const at = findLastIndex(rows, (r) => APPROVAL_TITLE.test(r));
  if (at < 0) return -1;
  // Open only while its hint is drawn under it and nothing but the box follows.
  const hint = rows.slice(at).some((r) => APPROVAL_HINT.test(r));
  const closed = rows.slice(at + 1).findIndex((r) => /^╰─+╯$/u.test(r));
  return hint && closed >= 0 && rows.slice(at + 1 + closed + 1).every((r) => r === '') ? at : -1;
}

/** The inner rows of the lowest ask box, borders cut, or null. */
function askBox(rows: readonly string[]): string[] | null {
  const title = findLastIndex(rows, (r) => ASK_TITLE.test(r));
  const body = (title >= 0 ? rows.slice(title + 1) : rows).map(stripSide);
  if (title < 0 && !body.some((r) => ASK_HINT.test(r))) return null;
  return body;
}

function classifyAsk(body: readonly string[]): Dialog {
  if (body.some((r) => REVIEW.test(r))) return 'review';
  const tabRow = body.find((r) => /(?:^|\s)Submit$/u.test(r));
  const questions = tabRow ? tabRow.split(/\s{2,}/u).filter((t) => t !== '' && t !== 'Submit').length : 0;
  if (questions >= 2) return 'wizard';
  if (body.some((r) => MULTI.test(r))) return 'multiselect';
  return 'select';
}

/** Cut a box's side borders (`│ … │`) off a trimmed row. */
function stripSide(row: string): string {
  return row.replace(/^[│┃]\s?/u, '').replace(/\s?[│┃█]$/u, '').trim();
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return i;
  return -1;
}
