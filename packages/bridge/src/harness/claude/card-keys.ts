import type { DialogCard } from '@collie/protocol';
import type { CardAnswer, KeyPlan } from '../agent';

/**
 * The keys that give an answer to a Claude Code dialog. Measured on Claude Code 2.1.334 in
 * tmux, one `send-keys` per key (keys sent together read as one unknown key):
 *
 * - permission, plan approval, a single-select question, a wizard's single-select tab, the
 *   review page: the option's digit chooses it at once (a wizard then opens its next tab).
 * - a multi-select question: a digit ticks or unticks its box without moving the pointer; Tab
 *   opens the next tab, which for a lone question is the review page, where `1` is
 *   `Submit answers`. Digits do nothing while the pointer is on the `Submit` row.
 * - a question with previews: a digit only moves the pointer; Enter then chooses.
 * - folder trust and the setup screens (API key, auto-mode nudge, theme; drawn without numbers,
 *   digits do nothing): Home goes to the first choice, Down to the next, Enter chooses. Notes
 *   to acknowledge have one choice: Enter.
 *
 * The caller has checked that the options exist, are not text fields, and that the card may
 * be answered now.
 */
export function claudeKeys(card: DialogCard, answer: CardAnswer): KeyPlan {
  const ticks = card.options.some((o) => o.checked !== null);
  if (answer.toggle !== undefined) {
    if (!ticks) return { ok: false, reason: 'this question takes one option, not ticks' };
    if (answer.toggle.some((n) => digit(n) === null)) return noDigit(answer.toggle);
    const steps = answer.toggle.map(String);
    // A wizard's Tab opens its next question; a lone question's Tab opens the review page.
    return { ok: true, steps: card.kind === 'multiselect' ? [...steps, 'Tab', '1'] : [...steps, 'Tab'] };
  }
  const n = answer.option ?? 0;
  if (ticks) return { ok: false, reason: 'this question takes ticks: send the boxes to toggle' };
  if (card.kind === 'trust' || card.kind === 'setup') return { ok: true, steps: ['Home', ...Array<string>(n - 1).fill('Down'), 'Enter'] };
  const key = digit(n);
  if (key === null) return noDigit([n]);
  return { ok: true, steps: showsPreviews(card) ? [key, 'Enter'] : [key] };
}

/**
 * A question with previews offers notes instead of a typed answer, so its one text option is
 * `Chat about this`; every other AskUserQuestion page also has its `Type something.` row.
 */
function showsPreviews(card: DialogCard): boolean {
  if (card.kind === 'preview') return true;
  return card.kind === 'wizard' && card.options.filter((o) => o.freeText).length === 1 && card.options.at(-1)?.label === 'Chat about this';
}

function digit(n: number): string | null {
  return Number.isInteger(n) && n >= 1 && n <= 9 ? String(n) : null;
}

function noDigit(ns: readonly number[]): KeyPlan {
  const n = ns.find((x) => digit(x) === null);
  return { ok: false, reason: `option ${n} has no digit key` };
}
