import type { Dialog, ScreenReading, ScreenState } from '@collie/protocol';
import type { AgentReader } from '../agent';
import { bottomTexts, lastNonEmpty, typedText, type StyledLine } from '../screen/styled-line';

/**
 * aider (prompt_toolkit, line-oriented). At rest the last row is its prompt: `> `, or the
 * mode's name before it (`architect> `, `ask> `, `multi> `). It asks before acting with a
 * question ending in its choices and default, e.g.
 * `Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: `. While the model answers it shows
 * a scanning spinner with `Waiting for <model>` (or `Updating repo map`).
 */
const PROMPT = /^(?:[a-z][a-z-]*)?> ?/u;
const CHOICES = /\(Y\)es\/\(N\)o\b/u;
const DEFAULT_ANSWER = /\[(?:Yes|No|All|Skip all|Don't ask again)\]:(?: \S*)?$/u;
const WORKING = [/\bWaiting for \S/u, /\bUpdating repo map\b/u];
const ACTIVITY_ROWS = 3;

export function readAider(lines: readonly StyledLine[]): ScreenReading {
  const end = lastNonEmpty(lines);
  const last = end >= 0 ? (lines[end] as StyledLine) : null;
  const lastText = (last?.text ?? '').trimEnd();
  const asks = CHOICES.test(lastText) || (lastText.includes('?') && DEFAULT_ANSWER.test(lastText));
  const dialog: Dialog | null = asks ? 'permission' : null;
  const atPrompt = dialog === null && last !== null && PROMPT.test(lastText);
  let state: ScreenState;
  if (dialog) state = 'blocked';
  else if (bottomTexts(lines, ACTIVITY_ROWS).some((r) => WORKING.some((re) => re.test(r)))) state = 'working';
  else if (atPrompt) state = 'idle';
  else state = 'unknown';
  let draft: string | null = null;
  if (atPrompt && last) {
    // prompt_toolkit draws history suggestions faint after the cursor; they are not typed.
    const typed = typedText(last);
    const text = typed.slice(PROMPT.exec(typed)?.[0].length ?? 0).trim();
    draft = text === '' ? null : text;
  }
  return { harness: 'aider', state, dialog, draft };
}

/** aider's reader in the one shape every agent has (`harness/agents.ts`). */
export const aiderAgent: AgentReader = {
  read: readAider,
  stopKey: 'C-c',
  pastePlaceholder: null,
};
