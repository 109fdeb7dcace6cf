import type { CardOption, Dialog, DialogCard } from '@collie/protocol';
import { lastNonEmpty, type StyledLine } from '../screen/styled-line';

/**
 * OpenCode 1.18's dialogs, drawn in place of the prompt box with a `┃` left border:
 *
 * - a permission request: `△ Permission required`, the tool (`# Shell command`, `→ Edit
 *   NOTES.md`), what it would do (`$ rm -rf build`, a diff), then the buttons `Allow once
 *   Allow always   Reject` (or without `Allow always`) and the hints `⇆ select  enter
 *   confirm`. Choosing `Allow always` opens a second page, `△ Always allow`, with the patterns
 *   and the buttons `Confirm   Cancel`.
 * - the question tool: the question, numbered options with a description row each, a last
 *   `Type your own answer`, and the hints `↑↓ select  enter submit  esc dismiss`.
 * - the question tool with several questions: a row of tabs above (one per question's header,
 *   then `Confirm`; the open one on the accent background), the open question's options, and
 *   `⇆ tab  ↑↓ select  enter confirm  esc dismiss`; its `Confirm` tab is a review page
 *   (`Review`, then `Colour: Sable` per question) with `⇆ tab  enter submit  esc dismiss`.
 */
const PERMISSION_HINT = /⇆ select\s+enter confirm\b/u;
const PERMISSION_HEAD = /^△\s+(Permission required|Always allow|Reject permission)$/u;
const QUESTION_HINT = /\benter submit\s+esc dismiss\b/u;
const TABS_HINT = /⇆ tab\s+↑↓ select\s+enter confirm\s+esc dismiss\b/u;
const REVIEW_HINT = /⇆ tab\s+enter submit\s+esc dismiss\b/u;
const QUESTION_OPTION = /^(\d+)\.\s+(.+)$/u;
const TYPED = /^Type your own answer$/u;
/** The hints share the buttons' row, right-aligned. */
const BUTTON_HINTS = /\s{2,}(?:ctrl\+\S+ \S+\s+)?⇆ select\s+enter confirm.*$/u;
/** A dialog is at most this many rows tall, counted up from the screen's last row. */
const DIALOG_ROWS = 60;
const BODY_ROWS = 12;

/** A dialog row: its index and its text with the left border cut. */
interface Row {
  at: number;
  text: string;
}

/** The bordered rows of the dialog ending at the screen's last non-empty row. */
function dialogRows(lines: readonly StyledLine[]): Row[] {
  const end = lastNonEmpty(lines);
  const rows: Row[] = [];
  for (let i = end; i >= 0 && end - i < DIALOG_ROWS; i--) {
    const text = lines[i]?.text ?? '';
    const m = /^\s*┃(.*)$/u.exec(text);
    if (!m) break;
    rows.unshift({ at: i, text: (m[1] ?? '').trim() });
  }
  return rows;
}

/** The open dialog's kind, or null. */
export function readOpencodeDialog(lines: readonly StyledLine[]): Dialog | null {
  const rows = dialogRows(lines);
  if (rows.some((r) => PERMISSION_HINT.test(r.text)) && rows.some((r) => PERMISSION_HEAD.test(r.text))) return 'permission';
  if (rows.some((r) => TABS_HINT.test(r.text))) return 'wizard';
  if (rows.some((r) => REVIEW_HINT.test(r.text))) return 'review';
  if (rows.some((r) => QUESTION_HINT.test(r.text))) return 'select';
  return null;
}

/** The open dialog as a card (without its signature), or null when it cannot be read. */
export function readOpencodeCard(lines: readonly StyledLine[], kind: Dialog): Omit<DialogCard, 'signature'> | null {
  const rows = dialogRows(lines);
  if (kind === 'permission') return permissionCard(lines, rows);
  if (kind === 'select') return questionCard(rows, QUESTION_HINT);
  if (kind === 'wizard' || kind === 'review') {
    const tabsAt = rows.findIndex((r) => r.text !== '');
    const tabs = readTabs(lines[rows[tabsAt]?.at ?? -1]);
    if (tabs.length === 0) return null;
    const rest = rows.slice(tabsAt + 1);
    const card = kind === 'wizard' ? questionCard(rest, TABS_HINT) : reviewCard(rest);
    return card && { ...card, kind, tabs: tabs.map((t) => ({ label: t.label, answered: false })), activeTab: tabs.findIndex((t) => t.open) >= 0 ? tabs.findIndex((t) => t.open) : null };
  }
  return null;
}

function permissionCard(lines: readonly StyledLine[], rows: Row[]): Omit<DialogCard, 'signature'> | null {
  const headAt = rows.findLastIndex((r) => PERMISSION_HEAD.test(r.text));
  const buttonsAt = rows.findLastIndex((r) => PERMISSION_HINT.test(r.text));
  if (headAt < 0 || buttonsAt <= headAt) return null;
  const head = PERMISSION_HEAD.exec(rows[headAt]?.text ?? '')?.[1] ?? '';
  const between = rows.slice(headAt + 1, buttonsAt).map((r) => r.text).filter((t) => t !== '');
  // On the first page the row under the heading names the tool behind an icon (`# Shell command`).
  const tool = head === 'Permission required' && between.length > 0 ? (between.shift() ?? '').replace(/^\S\s+/u, '') : '';
  const buttons = rows[buttonsAt] as Row;
  const options = readButtons(lines[buttons.at] as StyledLine);
  if (options.length === 0) return null;
  return {
    kind: 'permission',
    title: tool || head,
    body: between.slice(0, BODY_ROWS),
    question: head,
    options,
    tabs: [],
    activeTab: null,
    // The rejection page takes typed text: answered at the terminal.
    answerable: head !== 'Reject permission',
  };
}

/**
 * The buttons of a permission page. The focused one is drawn on a background colour the row's
 * gaps do not have (orange on grey in the default theme); that is where ←/→ start from.
 */
function readButtons(line: StyledLine): CardOption[] {
  const border = line.text.indexOf('┃');
  const text = line.text.replace(BUTTON_HINTS, '');
  const gapColour = line.bg?.[border + 1] ?? '';
  const options: CardOption[] = [];
  for (const m of text.slice(border + 1).matchAll(/\S+(?: \S+)*/gu)) {
    const at = border + 1 + m.index;
    const colour = line.bg?.[at] ?? '';
    options.push({ n: options.length + 1, label: m[0], description: null, checked: null, freeText: false, focused: colour !== gapColour });
  }
  // Exactly one focused button, or the colours told nothing: then say nothing of focus.
  if (options.filter((o) => o.focused).length !== 1) return options.map(({ focused: _, ...o }) => o);
  return options;
}

/**
 * The tabs of a multi-question dialog (`Colour   Size   Confirm`), the open one drawn on a
 * background the row's gaps do not have. Whether a tab is answered is told only by its
 * foreground colour, which the reader does not keep.
 */
function readTabs(line: StyledLine | undefined): { label: string; open: boolean }[] {
  if (!line) return [];
  const border = line.text.indexOf('┃');
  const gapColour = line.bg?.[border + 1] ?? '';
  const tabs: { label: string; open: boolean }[] = [];
  for (const m of line.text.slice(border + 1).matchAll(/\S+(?: \S+)*/gu)) tabs.push({ label: m[0], open: (line.bg?.[border + 1 + m.index] ?? '') !== gapColour });
  return tabs.at(-1)?.label === 'Confirm' ? tabs : [];
}

/** The review page: each question's answer, submitted with Enter or dismissed with Esc. */
function reviewCard(rows: Row[]): Omit<DialogCard, 'signature'> | null {
  const texts = rows.map((r) => r.text).filter((t) => t !== '' && !REVIEW_HINT.test(t));
  if (texts[0] !== 'Review') return null;
  const option = (n: number, label: string): CardOption => ({ n, label, description: null, checked: null, freeText: false });
  return { kind: 'review', title: 'Question', body: texts.slice(1, 1 + BODY_ROWS), question: 'Review', options: [option(1, 'Submit'), option(2, 'Dismiss')], tabs: [], activeTab: null, answerable: true };
}

function questionCard(rows: Row[], hint: RegExp): Omit<DialogCard, 'signature'> | null {
  const hintAt = rows.findLastIndex((r) => hint.test(r.text));
  const firstOption = rows.findIndex((r) => QUESTION_OPTION.test(r.text));
  if (hintAt < 0 || firstOption < 0 || firstOption > hintAt) return null;
  const question = rows
    .slice(0, firstOption)
    .map((r) => r.text)
    .filter((t) => t !== '');
  const options: CardOption[] = [];
  for (const row of rows.slice(firstOption, hintAt)) {
    const m = QUESTION_OPTION.exec(row.text);
    const last = options.at(-1);
    if (m && Number(m[1]) === options.length + 1) {
      const label = (m[2] ?? '').trim();
      options.push({ n: options.length + 1, label, description: null, checked: null, freeText: TYPED.test(label) });
    } else if (last && row.text !== '') last.description = last.description ? `${last.description} ${row.text}` : row.text;
  }
  if (options.length === 0) return null;
  return {
    kind: 'select',
    title: 'Question',
    body: question.slice(0, -1).slice(-BODY_ROWS),
    question: question.at(-1) ?? '',
    options,
    tabs: [],
    activeTab: null,
    answerable: true,
  };
}
