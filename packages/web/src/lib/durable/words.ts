import { splitAgentName, type TapOutcome } from '@collie/protocol';

/** What a card says after a tap, per outcome (the page's "What happens after a tap"). Null: the card closes. */
export function tapWords(outcome: TapOutcome, reason: string | null): string | null {
  switch (outcome) {
    case 'taken':
      return null;
    case 'decided':
      return 'Decided in the durable agent.';
    case 'timed_out':
      return 'Timed out before an answer.';
    case 'already_answered':
      return 'Already answered. This card goes away on the next update.';
    case 'not_open':
      return 'Not taken. The question may show again in a moment.';
    case 'changed':
      return 'This ask changed. Read it again, then tap an answer.';
    case 'unsure':
      return 'Not sure the answer arrived. Try again sends it once more.';
    case 'may_be_applied':
      return 'May already be applied. Check the chat.';
    case 'refused':
      return reason ?? 'The answer was refused.';
    case 'moved_on':
      return 'The conversation moved on, so the action did not run.';
    case 'older_collie':
      return 'This machine runs an older Collie and cannot take answers here. Update it, or answer in the durable agent.';
  }
}

/** Collie's words for the four permission actions. */
export const PERMISSION_WORDS = { allow: 'Allow', always: 'Always allow', deny: 'Deny', cancel: 'Cancel' } as const;

export const STATE_WORDS = { starting: 'Starting', unreachable: 'Unreachable', version_mismatch: 'Version mismatch' } as const;

/** An agent's name as a person reads it: a crew member's agent (`@<member>/<name>`) without its prefix. */
export function agentShownName(name: string): string {
  return splitAgentName(name)?.name ?? name;
}

/** The way back from a durable agent's chat, closed conversation or New page: its list, by its name. */
export function backToAgent(agent: string): { href: string; label: string } {
  return { href: `#/durable/${encodeURIComponent(agent)}`, label: agentShownName(agent) };
}
