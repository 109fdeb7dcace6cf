import type { DialogCard } from '@collie/protocol';
import type { CardAnswer, KeyPlan } from '../agent';

/**
 * The keys that answer pi's `ctx.ui.select`, measured on pi 0.73.1 in tmux (one `send-keys`
 * per key): ↑/↓ move the `→` pointer and stop at the ends (no wrap), Enter chooses, Esc
 * cancels (the permission gate takes that as No). Digits do nothing. So the plan first runs
 * the pointer to the top, then down to the option: it holds wherever the pointer was.
 */
export function piKeys(card: DialogCard, answer: CardAnswer): KeyPlan {
  if (answer.toggle !== undefined) return { ok: false, reason: 'this dialog takes one option, not ticks' };
  const n = answer.option ?? 0;
  const up = Array<string>(Math.max(0, card.options.length - 1)).fill('Up');
  return { ok: true, steps: [...up, ...Array<string>(n - 1).fill('Down'), 'Enter'] };
}
