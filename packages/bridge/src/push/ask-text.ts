import { createHash } from 'node:crypto';
import { askLine, ASK_LINE_MAX, paneAskTitle, paneTurnTitle, type DialogCard, type Pane, type PushAnswer } from '@collie/protocol';

export { askLine, waitsOnUser } from '@collie/protocol';

/** What a pane's question push says and where a tap leads. */
export interface PaneAsk {
  /** The once-only key: this pane and this dialog (its card's signature). */
  question: string;
  /** One tag per question: a reminder replaces the first push, a withdrawal closes it. */
  tag: string;
  title: string;
  body: string;
  url: string;
  /** A turn that finished (`done`), not a question: its own kind and setting, no reminder. */
  finished: boolean;
  /** What the lock screen may answer (a permission with a Deny); sent only when the setting is on. */
  answer?: PushAnswer;
}

/** A notification body shows a few lines; the payload must stay far under 4 KB. */
export const BODY_MAX = 600;
const LINE_MAX = ASK_LINE_MAX;

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

const ALWAYS = /always|don.?t ask|during this session|for this project|all edits/i;

/**
 * Lock-screen answers for a permission card: Deny (the plain "No"), and Allow (the plain "Yes",
 * never an "always" or "for this session") only when `whole`: the notification shows the tool
 * and its full command or path, so nobody approves what they cannot read.
 */
export function lockAnswer(paneId: string, card: DialogCard, whole: boolean): PushAnswer | undefined {
  if (card.kind !== 'permission' || !card.answerable) return undefined;
  const deny = card.options.find((o) => /^no\b/i.test(o.label.trim()));
  if (!deny) return undefined;
  const allow = card.options.find((o) => /^yes\b/i.test(o.label.trim()) && !ALWAYS.test(o.label) && !o.freeText);
  return { pane: paneId, signature: card.signature, deny: deny.n, allow: whole && allow ? allow.n : null };
}

/** The pane's name as the dashboard shows it. */
export function paneName(p: Pane): string {
  return cut(p.label.trim() || `${p.sessionName}:${p.windowName}`, 80);
}

/**
 * The push for a pane waiting on the user: "Permission needed in <pane>" and the question's own
 * words (the command of a permission, the question of a picker, then its options), masked.
 */
export function paneAsk(p: Pane, mask: (s: string) => string): PaneAsk {
  const card = p.card;
  const identity = card ? card.signature : `${p.dialog ?? 'dialog'}@${p.since}`;
  const question = `pane:${p.id}:${identity}`;
  const lines: string[] = [];
  if (card) {
    lines.push(askLine(card));
    const q = card.question.trim();
    if (q && !lines[0]?.includes(q)) lines.push(cut(q, LINE_MAX));
    const options = card.options.map((o) => `${o.n}. ${o.label}`).join('  ');
    if (card.kind !== 'permission' && options) lines.push(cut(options, LINE_MAX));
  } else {
    lines.push(p.dialog === 'permission' ? 'An agent asks for permission.' : 'An agent waits for your answer.');
  }
  const text = mask(lines.join('\n'));
  // The whole ask is in the text: every body row in the line, nothing cut.
  const rows = card ? card.body.filter((l) => l.trim() !== '') : [];
  const whole = card !== null && rows.length <= 3 && !lines[0]!.endsWith('…') && text.length <= BODY_MAX;
  const answer = card ? lockAnswer(p.id, card, whole) : undefined;
  return {
    question,
    tag: `ask-${createHash('sha256').update(question).digest('base64url').slice(0, 22)}`,
    title: mask(paneAskTitle(paneName(p), p.member?.name)),
    body: cut(text, BODY_MAX),
    url: `#/pane/${encodeURIComponent(p.id)}`,
    finished: false,
    ...(answer ? { answer } : {}),
  };
}

/** A pane whose turn ended and nobody has opened it since (`done`); a shell has no turns. */
export function turnFinished(p: Pane): boolean {
  return p.state === 'done' && p.harness !== 'shell';
}

/**
 * The push for a finished turn: "Turn finished in <pane>", once per turn (the pane and the
 * moment it became `done`), withdrawn when the pane is opened or starts its next turn.
 */
export function paneFinished(p: Pane, mask: (s: string) => string): PaneAsk {
  const question = `turn:${p.id}:${p.since}`;
  return {
    question,
    tag: `turn-${createHash('sha256').update(question).digest('base64url').slice(0, 22)}`,
    title: mask(paneTurnTitle(paneName(p), p.member?.name)),
    body: 'The agent waits for your next message.',
    url: `#/pane/${encodeURIComponent(p.id)}`,
    finished: true,
  };
}
