import type { BoxAction } from '@collie/protocol';
import { AGENTS } from '../harness/agents';
import { boxForm, graphemes, matchBox } from './box-match';
import { VERIFY_MS, type TypistDeps } from './typist';

const STEP_MS = 25;

/**
 * "Send it" or "Clear it" for text a send left in the box, which the caller has just read as
 * `draft`: Enter, and the box must change; or one Backspace per grapheme (a paste
 * placeholder goes with one), and the box must empty. `unchanged`: the box did not do that.
 */
export async function actOnBox(d: TypistDeps, tmuxId: string, action: BoxAction, draft: string): Promise<'done' | 'unchanged' | 'gone'> {
  const first = await d.readNow();
  if (!first) return 'gone';
  const placeholder = AGENTS[first.harness].pastePlaceholder;
  const still = (box: string | null) => matchBox(box, draft, null) === 'ours';
  try {
    if (action === 'submit') await d.command(['send-keys', '-t', tmuxId, 'Enter']);
    else await d.command(['send-keys', '-N', String(backspaces(draft, placeholder)), '-t', tmuxId, 'BSpace']);
  } catch {
    return 'gone';
  }
  const deadline = Date.now() + VERIFY_MS;
  for (;;) {
    const p = await d.readNow();
    if (!p) return 'gone';
    const ok = action === 'submit' ? !still(p.reading.draft) : boxForm(p.reading.draft ?? '') === '';
    if (ok) return 'done';
    if (Date.now() > deadline) return 'unchanged';
    await new Promise((r) => setTimeout(r, STEP_MS));
  }
}

/** Backspaces that empty a box holding `draft`: a paste placeholder is one token. */
function backspaces(draft: string, placeholder: RegExp | null): number {
  if (!placeholder) return graphemes(draft);
  const token = new RegExp(placeholder.source.replace(/^\^|\$$/gu, ''), `${placeholder.flags.replace('g', '')}g`);
  const tokens = draft.match(token)?.length ?? 0;
  return graphemes(draft.replace(token, '')) + tokens;
}
