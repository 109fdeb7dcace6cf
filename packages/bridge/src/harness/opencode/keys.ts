import type { DialogCard } from '@collie/protocol';
import type { CardAnswer, KeyPlan } from '../agent';

/**
 * The keys that answer an OpenCode 1.18 dialog, measured in tmux (one `send-keys` per key):
 *
 * - a permission page: ←/→ move between the buttons and wrap around; Enter chooses the
 *   focused one; Esc rejects (the first page's `Reject`). Digits do nothing. So the plan starts
 *   from the focused button the card read.
 * - the question tool: an option's digit chooses it and submits at once; with several
 *   questions it chooses and opens the next tab, and the last (`Confirm`) tab's review page
 *   submits on Enter and dismisses on Esc.
 */
export function opencodeKeys(card: DialogCard, answer: CardAnswer): KeyPlan {
  if (answer.toggle !== undefined) return { ok: false, reason: 'this dialog takes one option, not ticks' };
  const n = answer.option ?? 0;
  if (card.kind === 'select' || card.kind === 'wizard') return n >= 1 && n <= 9 ? { ok: true, steps: [String(n)] } : { ok: false, reason: `option ${n} has no digit key` };
  if (card.kind === 'review') return n === 1 ? { ok: true, steps: ['Enter'] } : n === 2 ? { ok: true, steps: ['Escape'] } : { ok: false, reason: `option ${n} is not on this card` };
  if (card.kind !== 'permission') return { ok: false, reason: 'this agent is answered at its terminal' };
  const target = card.options.find((o) => o.n === n);
  if (target?.label === 'Reject' && card.question === 'Permission required') return { ok: true, steps: ['Escape'] };
  const focused = card.options.find((o) => o.focused === true);
  if (!focused) return { ok: false, reason: 'the focused button could not be read from the screen' };
  const moves = n - focused.n;
  return { ok: true, steps: [...Array<string>(Math.abs(moves)).fill(moves > 0 ? 'Right' : 'Left'), 'Enter'] };
}
