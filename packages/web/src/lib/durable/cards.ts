import type { DurableItem, DurableQuestion, TapOutcome, TapResult, WireAnswer } from '@collie/protocol';

/**
 * The question cards of one conversation and what your taps did to them (the page's table
 * "What happens after a tap"). Pure: the chat keeps `Tap`s by question id and asks here which
 * cards to draw and how.
 */
export interface Tap {
  /** The question as it was when you tapped (a frozen card keeps drawing it after it ends). */
  readonly question: DurableQuestion;
  readonly requestId: string;
  readonly answer: WireAnswer;
  /** Null while the call is on its way. */
  readonly result: TapResult | null;
  /** The conversation's `updatedAt` when you tapped: "goes away on the next update" counts from it. */
  readonly updatedAt: number;
}

/** Outcomes after which the card keeps standing, buttons off, once the question has ended. */
const FROZEN: ReadonlySet<TapOutcome> = new Set(['decided', 'timed_out', 'may_be_applied']);
/** Outcomes after which the card's buttons no longer send. */
const SETTLED: ReadonlySet<TapOutcome> = new Set(['decided', 'timed_out', 'already_answered', 'older_collie']);

export interface CardView {
  readonly question: DurableQuestion;
  readonly tap: Tap | null;
  /** The buttons stay drawn but do not send. */
  readonly frozen: boolean;
  /** Sending now. */
  readonly busy: boolean;
}

/**
 * The cards to draw: every open question (oldest first) but one your tap closed (`taken`), and
 * after them the ended questions whose card freezes with what the durable agent said.
 */
export function cardViews(live: readonly DurableQuestion[], taps: ReadonlyMap<string, Tap>, updatedAt: number): CardView[] {
  const out: CardView[] = [];
  const liveIds = new Set(live.map((q) => q.id));
  for (const q of live) {
    const tap = taps.get(q.id) ?? null;
    if (tap?.result?.outcome === 'taken') continue;
    // A changed ask is drawn anew: the old tap's words stay until the next tap.
    out.push({ question: q, tap, frozen: tap?.result ? SETTLED.has(tap.result.outcome) : false, busy: tap !== null && tap.result === null });
  }
  for (const [id, tap] of taps) {
    if (liveIds.has(id)) continue;
    const outcome = tap.result?.outcome ?? null;
    const keep = outcome === null || outcome === 'unsure' || FROZEN.has(outcome) || (outcome === 'already_answered' && updatedAt === tap.updatedAt);
    if (keep) out.push({ question: tap.question, tap, frozen: tap.result !== null && tap.result.outcome !== 'unsure', busy: tap.result === null });
  }
  return out;
}

/** The request id of a tap on this question: the unsure one again (the bridge and agent act once), else a new one. */
export function requestIdFor(prior: Tap | undefined, fresh: () => string): string {
  return prior?.result?.outcome === 'unsure' ? prior.requestId : fresh();
}

export type ThreadRow<C> = { readonly kind: 'item'; readonly item: DurableItem } | { readonly kind: 'card'; readonly card: C };

/** The thread with each card under the tool call it is about; a card about no drawn tool call goes last. */
export function placeCards<C extends { readonly question: DurableQuestion }>(items: readonly DurableItem[], cards: readonly C[]): ThreadRow<C>[] {
  const byCall = new Map<string, C[]>();
  const calls = new Set(items.flatMap((i) => (i.kind === 'tool' && i.callId ? [i.callId] : [])));
  const rest: C[] = [];
  for (const c of cards) {
    const call = c.question.toolCall?.id;
    if (call && calls.has(call)) byCall.set(call, [...(byCall.get(call) ?? []), c]);
    else rest.push(c);
  }
  const out: ThreadRow<C>[] = [];
  for (const item of items) {
    out.push({ kind: 'item', item });
    if (item.kind === 'tool' && item.callId) {
      for (const card of byCall.get(item.callId) ?? []) out.push({ kind: 'card', card });
      byCall.delete(item.callId);
    }
  }
  for (const card of rest) out.push({ kind: 'card', card });
  return out;
}

/**
 * The ids of questions in the order they were first seen, so a card that ends and freezes
 * keeps its place instead of jumping to the end. Returns the grown list (same array when unchanged).
 */
export function seenOrder(was: readonly string[], live: readonly DurableQuestion[]): readonly string[] {
  const fresh = live.map((q) => q.id).filter((id) => !was.includes(id));
  return fresh.length ? [...was, ...fresh] : was;
}

/** Cards in first-seen order. */
export function inOrder<C extends { readonly question: DurableQuestion }>(cards: readonly C[], order: readonly string[]): C[] {
  const at = (c: C) => {
    const i = order.indexOf(c.question.id);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return [...cards].sort((a, b) => at(a) - at(b));
}
