import type { DialogCard } from '@collie/protocol';
import { AGENTS } from '../harness/agents';
import { textAnswerPlan } from '../harness/card';
import { parseScreen } from '../harness/screen/parse-screen';
import type { PaneNow } from '../panes/pane-tracker';
import { KEY_GAP_MS, pressKeys, typeAndSubmit, type TypeResult, type TypistDeps } from './typist';

/** A typed answer to a card: refused before any key (with the reason in words), or how the typing went. */
export type TextAnswerResult = { ok: false; reason: string } | { ok: true; typed: TypeResult };

/**
 * Answer option `option` of `card` with words: press the keys that put the pointer into its
 * text field (`textAnswerPlan`), then type `text` and submit it with the send protocol's typist,
 * whose check that the text arrived looks at the dialog's field (`AgentReader.fieldText`)
 * instead of the input box. The caller has checked the card's signature against the pane.
 *
 * @example
 * await answerWithText(deps, '%3', now, card, 4, 'use echo instead') // { ok: true, typed: { result: 'typed' } }
 */
export async function answerWithText(d: TypistDeps, tmuxId: string, now: PaneNow, card: DialogCard, option: number, text: string): Promise<TextAnswerResult> {
  const plan = textAnswerPlan(now.harness, card, option);
  if (!plan.ok) return plan;
  const fieldText = AGENTS[now.harness].fieldText;
  if (!fieldText) return { ok: false, reason: 'this agent takes typed answers at its terminal only' };
  if (!(await pressKeys(d, tmuxId, plan.steps))) return { ok: true, typed: { result: 'gone' } };
  // The paste must not reach the dialog in the same read as the key that opens the field.
  await new Promise((r) => setTimeout(r, KEY_GAP_MS));
  // The typist reads "the box"; here the box is the dialog's field under the pointer.
  const field: TypistDeps = {
    ...d,
    readNow: async () => {
      const pane = await d.readNow();
      if (!pane) return null;
      const screen = await d.command(['capture-pane', '-p', '-e', '-t', tmuxId]).catch(() => null);
      if (!screen) return null;
      // Nothing covers this box (it is in the dialog), and the Enter guard holds it to this screen.
      return { ...pane, lines: screen, reading: { ...pane.reading, draft: fieldText(parseScreen(screen.join('\n'))), dialog: null, state: 'idle' } };
    },
  };
  return { ok: true, typed: await typeAndSubmit(field, tmuxId, text, false) };
}
