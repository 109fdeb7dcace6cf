import type { CardOption, DialogCard } from './pane';

/**
 * How far an answer reaches: `primary` is the first, narrowest yes (Yes, Allow once), one tap;
 * `wider` goes beyond this one ask (always allow, don't ask again, all edits this session,
 * auto mode) and needs a second tap; `plain` is anything else, No included.
 */
export type Reach = 'primary' | 'wider' | 'plain';

/** Words agents use for an answer that also covers later asks. Checked 2026-12-03 on Claude Code, Codex and Gemini CLI dialogs. */
const WIDER = /\b(always|don'?t ask|do not ask|all\b|every|session|auto|remember|forever|bypass|from now on|yolo)/i;
const YES = /^(yes|allow|approve|proceed|accept|ok|continue|trust)\b/i;
const NO = /^(no|deny|reject|cancel|decline|don'?t)\b/i;

export function optionReach(card: DialogCard, option: CardOption): Reach {
  if (NO.test(option.label.trim())) return 'plain';
  if (WIDER.test(option.label)) return 'wider';
  const narrowest = card.options.find((o) => !o.freeText && !NO.test(o.label.trim()) && !WIDER.test(o.label));
  return narrowest?.n === option.n ? 'primary' : 'plain';
}

/** A line of plain words ("Run the scripted command"): a description, not the command itself. */
const PROSE = /^[A-Z][a-z']*( [A-Za-z']+)*\.?$/;
/** A field of the ask, not its subject: Codex's `Environment: local`, `Reason: Clean the build output`. */
const FIELD = /^[A-Z][a-z]+: /;
/** A shell prompt before a command: Codex's `$ rm -rf build`. */
const PROMPT = /^\$\s+/;

/**
 * What the ask was about, in a few words: the command (a `$ ` line, without its prompt) or the
 * file on the card, else its first line, else its title.
 */
export function askSubject(card: DialogCard): string {
  const lines = card.body.map((l) => l.trim()).filter((l) => l !== '');
  const command = lines.find((l) => PROMPT.test(l))?.replace(PROMPT, '');
  const text = command ?? lines.find((l) => !PROSE.test(l) && !FIELD.test(l)) ?? lines[0] ?? card.title.trim();
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * What the page says where the card was once the answer reached the agent, e.g.
 * "Allowed once: rm -rf ./build", "Refused: rm -rf ./build", "Answered: Postgres".
 */
export function answerWords(card: DialogCard, option: CardOption): string {
  const about = askSubject(card);
  const label = option.label.trim();
  if (card.kind === 'permission' || card.kind === 'trust' || card.kind === 'plan') {
    if (NO.test(label)) return `Refused: ${about}`;
    if (YES.test(label)) {
      const reach = optionReach(card, option);
      return reach === 'wider' ? `Allowed, ${label.replace(YES, '').replace(/^[\s,]+/, '')}: ${about}` : `Allowed once: ${about}`;
    }
  }
  return `Answered “${label}”${about && card.kind === 'permission' ? `: ${about}` : ''}`;
}
