import { createHash } from 'node:crypto';
import { paneAskTitle, type DialogCard, type Pane } from '@collie/protocol';

/** What a pane's question push says and where a tap leads. */
export interface PaneAsk {
  /** The once-only key: this pane and this dialog (its card's signature). */
  question: string;
  /** One tag per question: a reminder replaces the first push, a withdrawal closes it. */
  tag: string;
  title: string;
  body: string;
  url: string;
}

/** A notification body shows a few lines; the payload must stay far under 4 KB. */
export const BODY_MAX = 600;
const LINE_MAX = 160;

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** "Bash command" → "Bash": the tool a permission is about, as the dashboard row names it. */
function toolOf(title: string): string {
  return title.replace(/\s+(command|file|tool)$/i, '').trim();
}

/**
 * The one line of what is being asked, from the card: the tool and its body rows (for a Bash
 * permission Claude Code's card holds the description and the command; for a file, the path
 * and its first lines), else the question. Masked by the caller's redactor.
 */
export function askLine(card: DialogCard): string {
  const rows = card.body.map((l) => l.trim()).filter((l) => l !== '');
  if (card.kind === 'permission' && rows.length > 0) return cut(`${toolOf(card.title) || 'Tool'}: ${rows.slice(0, 3).join(' · ')}`, LINE_MAX);
  return cut(card.question.trim() || rows[0] || card.title, LINE_MAX);
}

/** The pane's name as the dashboard shows it. */
export function paneName(p: Pane): string {
  return cut(p.label.trim() || `${p.sessionName}:${p.windowName}`, 80);
}

/** True when the agent waits on the user: blocked on a dialog it raised (a menu the user opened is not asking). */
export function waitsOnUser(p: Pane): boolean {
  return p.state === 'blocked' && p.dialog !== 'menu' && (p.card === null || p.card.answerable);
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
  return {
    question,
    tag: `ask-${createHash('sha256').update(question).digest('base64url').slice(0, 22)}`,
    title: mask(paneAskTitle(paneName(p))),
    body: cut(mask(lines.join('\n')), BODY_MAX),
    url: `#/pane/${encodeURIComponent(p.id)}`,
  };
}
