import type { CardOption, Dialog, DialogCard } from '@collie/protocol';
import type { CardAnswer, KeyPlan } from '../agent';
import type { StyledLine } from '../screen/styled-line';
import { findDialog, OPTION, QUESTION_HEAD } from './layout';

/** The key Codex prints after an approval option: `Yes, proceed (y)`, `No, and tell Codex … (esc)`. */
const SHORTCUT = /\s+\((y|p|a|n|esc)\)$/u;
/** The hint rows and the folder path drawn in the trust box: not the question. */
const TRUST_TITLE = /^\s*Folder access\s*$/u;

/**
 * The open Codex dialog as a card: the approval's command, environment and reason as the body,
 * its numbered options without their shortcut hints; folder trust with its path; the question
 * tool's open question (`Question 1/2` as the title) with each option's description.
 */
export function readCodexCard(lines: readonly StyledLine[], kind: Dialog): Omit<DialogCard, 'signature'> | null {
  const dialog = findDialog(lines);
  if (!dialog || dialog.kind !== kind) return null;
  const rows = lines.slice(dialog.top, dialog.hint).map((l) => l.text);
  const first = rows.findIndex((r) => OPTION.test(r));
  if (first < 0) return null;
  const options: CardOption[] = [];
  for (const row of rows.slice(first)) {
    const m = OPTION.exec(row);
    if (!m) continue;
    options.push({ n: Number(m[1]), label: (m[2] ?? '').replace(SHORTCUT, ''), description: null, checked: null, freeText: false });
  }
  const above = rows.slice(0, first).map((r) => r.trim()).filter((r) => r !== '');
  if (kind === 'select' || kind === 'wizard') {
    // `Black (Recommended)  The classic coat`: the label, then its description past a wide gap.
    const split = options.map((o) => {
      const [label = '', ...rest] = o.label.split(/\s{2,}/u);
      return { ...o, label, description: rest.join(' ') || null };
    });
    const [head = '', ...question] = above;
    return { kind, title: QUESTION_HEAD.exec(head)?.[0].trim() ?? 'Question', body: [], question: question.join(' '), options: split, tabs: [], activeTab: null, answerable: true };
  }
  if (kind === 'permission') {
    const [question = '', ...body] = above;
    return { kind, title: 'Run command', body, question, options, tabs: [], activeTab: null, answerable: true };
  }
  // Trust: `Folder access`, the folder, then the paragraph that asks.
  const titled = TRUST_TITLE.test(above[0] ?? '');
  const title = titled ? (above[0] ?? '') : 'Folder access';
  const rest = titled ? above.slice(1) : above;
  const question = /[^.?!]*\?/u.exec(rest.find((r) => r.includes('?')) ?? '')?.[0].trim() ?? '';
  return { kind, title, body: rest, question, options, tabs: [], activeTab: null, answerable: true };
}

/**
 * The keys that answer a Codex dialog, measured on Codex 0.171 in tmux: in the command
 * approval a digit chooses its option at once (`2` approves and stops asking for that
 * command prefix), and in the question tool too (it then opens the next question, or submits
 * after the last); in the trust dialog a digit only moves the pointer, and Enter chooses.
 */
export function codexKeys(card: DialogCard, answer: CardAnswer): KeyPlan {
  if (answer.toggle !== undefined) return { ok: false, reason: 'this dialog takes one option, not ticks' };
  const n = answer.option ?? 0;
  if (!Number.isInteger(n) || n < 1 || n > 9) return { ok: false, reason: `option ${n} has no digit key` };
  return { ok: true, steps: card.kind === 'trust' ? [String(n), 'Enter'] : [String(n)] };
}
