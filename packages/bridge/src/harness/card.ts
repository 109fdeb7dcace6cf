import type { DialogCard, Harness } from '@collie/protocol';
import { cardSignature } from './card-signature';
import type { CardAnswer, KeyPlan } from './agent';
import { AGENTS } from './agents';
import { parseScreen } from './screen/parse-screen';

/**
 * The dialog on one captured screen as a card: what it asks, the options to tap, and a
 * signature of what the person read. Null when no dialog is open, or the harness has no card
 * reader (its dialogs are shown as the screen only).
 * Pure and total: any string yields a card or null, never a throw.
 *
 * @example
 * readCard('claude', capture)
 * // { kind: 'permission', title: 'Bash command', body: ['touch marker'], question: 'Do you want to proceed?',
 * //   options: [{ n: 1, label: 'Yes', … }, …], answerable: true, signature: '9f0c…', … }
 */
export function readCard(harness: Harness, screen: string): DialogCard | null {
  const lines = parseScreen(screen);
  const agent = AGENTS[harness];
  const kind = agent.card ? agent.read(lines).dialog : null;
  const card = kind === null || !agent.card ? null : agent.card(lines, kind);
  return card === null ? null : { ...card, signature: cardSignature(card) };
}

/**
 * The keys to press, one tmux key name per step (the TUI reads keys sent together as one
 * unknown key), to give `answer` to the dialog `card` shows; or why not, in words.
 *
 * `option` picks one option; `toggle` ticks or unticks boxes of a multi-select question and
 * then moves on (a lone question is submitted, a wizard opens its next tab). The keys are the
 * agent's own (`AgentReader.keys`).
 *
 * Press the steps only after re-reading the pane and finding the same signature, and not in
 * the first moments after the dialog opened: Claude drops keys that arrive then.
 *
 * @example
 * answerPlan('claude', card, { option: 2 })        // { ok: true, steps: ['2'] }
 * answerPlan('claude', card, { toggle: [1, 3] })  // { ok: true, steps: ['1', '3', 'Tab', '1'] }
 * answerPlan('claude', menuCard, { option: 1 })   // { ok: false, reason: 'a menu the user opened is not answered from here' }
 */
export function answerPlan(harness: Harness, card: DialogCard, answer: CardAnswer): KeyPlan {
  if (!card.answerable) {
    return {
      ok: false,
      reason:
        card.kind === 'menu'
          ? 'a menu the user opened is not answered from here'
          : 'the dialog cannot take keys now: its pointer is in a text field or on a row that ignores them, or this agent is answered at its terminal',
    };
  }
  if ((answer.option === undefined) === (answer.toggle === undefined)) {
    return { ok: false, reason: 'give either one option or the boxes to toggle' };
  }
  const asked = answer.option !== undefined ? [answer.option] : (answer.toggle ?? []);
  const seen = new Set<number>();
  for (const n of asked) {
    const option = card.options.find((o) => o.n === n);
    if (!option) return { ok: false, reason: `option ${n} is not on this card` };
    if (option.freeText) return { ok: false, reason: `option ${n} ("${option.label}") asks for typed text` };
    // Pressing a box's digit twice unticks it again: say so rather than guess.
    if (seen.has(n)) return { ok: false, reason: `option ${n} is listed twice` };
    seen.add(n);
  }
  const keys = AGENTS[harness].keys;
  return keys ? keys(card, answer) : { ok: false, reason: 'this agent is answered at its terminal' };
}

/**
 * The keys that ready option `option` of `card` for typed words: its text field (`freeText`) or
 * its amend field (`amend`); or why not, in words. The caller types the text after them and
 * presses Enter once the field shows it (`AgentReader.fieldText`).
 *
 * @example
 * textAnswerPlan('claude', questionCard, 4)   // { ok: true, steps: ['4'] }            ("Type something.")
 * textAnswerPlan('claude', permissionCard, 4) // { ok: true, steps: ['Home', 'Down', 'Down', 'Down', 'Tab'] }
 */
export function textAnswerPlan(harness: Harness, card: DialogCard, option: number): KeyPlan {
  if (card.kind === 'menu') return { ok: false, reason: 'a menu the user opened is not answered from here' };
  const chosen = card.options.find((o) => o.n === option);
  if (!chosen) return { ok: false, reason: `option ${option} is not on this card` };
  if (!chosen.freeText && chosen.amend === undefined) return { ok: false, reason: `option ${option} ("${chosen.label}") takes no words` };
  if (!card.answerable) return { ok: false, reason: 'the dialog cannot take keys now: its pointer is in a text field, or this agent is answered at its terminal' };
  const agent = AGENTS[harness];
  return agent.textKeys && agent.fieldText ? agent.textKeys(card, option) : { ok: false, reason: 'this agent takes typed answers at its terminal only' };
}
