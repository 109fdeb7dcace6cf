import type { CardOption, Dialog, DialogCard } from '@collie/protocol';
import type { CardAnswer, KeyPlan } from '../agent';
import type { StyledLine } from '../screen/styled-line';
import { findDialog, OPTION, QUESTION_HEAD, QUESTION_TABS, REVIEW_HEAD, unboxed } from './layout';

/** `(esc)` after an option: its key, not its words. */
const KEY_HINT = /\s+\(esc\)$/u;
/** The approval's heading row: `? Shell  rm -rf build`. */
const HEADING = /^\?\s+(\S+)\s+(.*)$/u;
/** The edges of the nested box around the command. */
const EDGE = /^[╭╰]─+[╮╯]$/u;

/**
 * The open Gemini CLI dialog as a card: for a tool approval, the tool as the title and its
 * command (or what a file edit does, and its diff) as the body; for folder trust, the
 * explanation as the body; for the `ask_user` tool, its question and options, or on its review
 * tab the answers given.
 */
export function readGeminiCard(lines: readonly StyledLine[], kind: Dialog): Omit<DialogCard, 'signature'> | null {
  const dialog = findDialog(lines);
  if (!dialog || dialog.kind !== kind) return null;
  if (dialog.kind === 'select' || dialog.kind === 'wizard') return questionCard(lines.slice(dialog.top + 1, dialog.bottom).map((l) => unboxed(l.text)), dialog.kind);
  if (dialog.kind === 'review') return reviewCard(lines.slice(dialog.top + 1, dialog.bottom).map((l) => unboxed(l.text)));
  const rows = lines
    .slice(dialog.top + 1, dialog.bottom)
    .map((l) => unboxed(l.text))
    .filter((r) => r !== '' && !EDGE.test(r));
  const first = rows.findIndex((r) => OPTION.test(r));
  if (first < 0) return null;
  const options: CardOption[] = [];
  for (const row of rows.slice(first)) {
    const m = OPTION.exec(row);
    if (m) options.push({ n: Number(m[1]), label: (m[2] ?? '').replace(KEY_HINT, ''), description: null, checked: null, freeText: false });
  }
  const above = rows.slice(0, first);
  const askAt = above.findIndex((r) => r.endsWith('?'));
  const question = askAt >= 0 ? (above[askAt] ?? '') : '';
  let title = kind === 'trust' ? 'Folder trust' : 'Tool';
  let body = above.filter((_, i) => i !== askAt);
  const heading = HEADING.exec(above[0] ?? '');
  if (kind === 'permission' && heading) {
    title = heading[1] ?? title;
    body = body.slice(1);
    // A shell heading repeats the command the nested box shows in full; a file edit's says
    // what it does (`Writing to NOTES.md`) above the diff.
    const what = heading[2] ?? '';
    if (body[0] !== what) body = [what, ...body];
  }
  return { kind, title, body, question, options, tabs: [], activeTab: null, answerable: true };
}

/** `Enter a custom value`: the question's own text field. */
const CUSTOM = /^Enter a custom value$/u;
/** The hint row under a question's options. */
const QUESTION_HINT = /^Enter to select\b/u;
/** A tab's mark: `□` unanswered, `■`/`✓`/`☑` answered, `≡` the review page. */
const TAB = /^([□■✓☑≡])\s+(.+)$/u;

/**
 * The `ask_user` tool's `Answer Questions` box: the question over its numbered options, each
 * with a description row under it, and a last `Enter a custom value`; several questions add a
 * row of tabs (`← □ Colour │ □ Size │ ≡ Review →`). Which tab is open is drawn only in bold
 * underline, which the reader does not keep: `activeTab` stays null.
 */
function questionCard(box: string[], kind: 'select' | 'wizard'): Omit<DialogCard, 'signature'> | null {
  const rows = box.filter((r) => r !== '' && !QUESTION_HEAD.test(r));
  const tabRow = rows.find((r) => QUESTION_TABS.test(r));
  const tabs = tabRow ? readTabs(tabRow) : [];
  const first = rows.findIndex((r) => OPTION.test(r));
  if (first < 0) return null;
  const options: CardOption[] = [];
  for (const row of rows.slice(first)) {
    if (QUESTION_HINT.test(row)) break;
    const m = OPTION.exec(row);
    const last = options.at(-1);
    if (m && Number(m[1]) === options.length + 1) {
      const label = m[2] ?? '';
      options.push({ n: options.length + 1, label, description: null, checked: null, freeText: CUSTOM.test(label) });
    } else if (last) last.description = last.description ? `${last.description} ${row}` : row;
  }
  const above = rows.slice(0, first).filter((r) => r !== tabRow);
  return { kind, title: 'Question', body: above.slice(0, -1), question: above.at(-1) ?? '', options, tabs, activeTab: null, answerable: true };
}

/** The tabs of `← □ Colour │ ■ Size │ ≡ Review →`. */
function readTabs(row: string): DialogCard['tabs'] {
  return row
    .slice(1, -1)
    .split('│')
    .map((t) => TAB.exec(t.trim()))
    .filter((m) => m !== null)
    .map((m) => ({ label: m[2] ?? '', answered: m[1] !== '□' && m[1] !== '≡' }));
}

/** The footer of the review tab: `Enter to submit · Tab/Shift+Tab to edit answers · Esc to cancel`. */
const REVIEW_HINT = /^Enter to submit\b/u;

/**
 * The multi-question box's last tab: `Review your answers:`, a warning while questions are
 * unanswered (`⚠ You have 2 unanswered questions`), then one `Colour → Black` row per question
 * (`(not answered)` for none). Enter submits the answers, Esc cancels the whole tool call; the
 * open tab is the review, the last.
 */
function reviewCard(box: string[]): Omit<DialogCard, 'signature'> | null {
  const rows = box.filter((r) => r !== '' && !QUESTION_HEAD.test(r));
  const tabRow = rows.find((r) => QUESTION_TABS.test(r));
  const tabs = tabRow ? readTabs(tabRow) : [];
  const at = rows.findIndex((r) => REVIEW_HEAD.test(r));
  if (at < 0) return null;
  const end = rows.findIndex((r, i) => i > at && REVIEW_HINT.test(r));
  const body = rows.slice(at + 1, end < 0 ? undefined : end);
  const option = (n: number, label: string): CardOption => ({ n, label, description: null, checked: null, freeText: false });
  return { kind: 'review', title: 'Question', body, question: 'Review your answers', options: [option(1, 'Submit'), option(2, 'Cancel')], tabs, activeTab: tabs.length > 0 ? tabs.length - 1 : null, answerable: true };
}

/**
 * The keys that answer a Gemini CLI dialog, measured on 0.61 in tmux: the option's digit
 * chooses it at once, in the tool approval and in the folder-trust question alike; on the
 * questions' review tab Enter submits and Esc cancels.
 */
export function geminiKeys(card: DialogCard, answer: CardAnswer): KeyPlan {
  if (answer.toggle !== undefined) return { ok: false, reason: 'this dialog takes one option, not ticks' };
  const n = answer.option ?? 0;
  if (card.kind === 'review') return n === 1 ? { ok: true, steps: ['Enter'] } : n === 2 ? { ok: true, steps: ['Escape'] } : { ok: false, reason: `option ${n} is not on this card` };
  if (!Number.isInteger(n) || n < 1 || n > 9) return { ok: false, reason: `option ${n} has no digit key` };
  return { ok: true, steps: [String(n)] };
}
