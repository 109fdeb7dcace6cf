import type { DialogCard, Pane } from './pane';

/** The longest one line of an ask: a dashboard row and a notification's first line. */
export const ASK_LINE_MAX = 160;

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** "Bash command" → "Bash": the tool a permission is about. */
function toolOf(title: string): string {
  return title.replace(/\s+(command|file|tool)$/i, '').trim();
}

/**
 * The one line of what is being asked, from the card: the tool and its body rows (for a Bash
 * permission Claude Code's card holds the description and the command; for a file, the path
 * and its first lines), else the question. The card's text is masked by the bridge already;
 * the push masks the line again with its redactor. One function for the push and the
 * dashboard row, so both say the same words.
 */
export function askLine(card: DialogCard): string {
  const rows = card.body.map((l) => l.trim()).filter((l) => l !== '');
  if (card.kind === 'permission' && rows.length > 0) return cut(`${toolOf(card.title) || 'Tool'}: ${rows.slice(0, 3).join(' · ')}`, ASK_LINE_MAX);
  return cut(card.question.trim() || rows[0] || card.title, ASK_LINE_MAX);
}

/** True when the agent waits on the user: blocked on a dialog it raised (a menu the user opened is not asking). */
export function waitsOnUser(p: Pane): boolean {
  return p.state === 'blocked' && p.dialog !== 'menu' && (p.card === null || p.card.answerable);
}
