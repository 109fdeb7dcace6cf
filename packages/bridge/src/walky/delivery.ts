import { INBOX_REASON, OUTCOME, type SendReceipt, type WalkyState } from '@collie/protocol';
import type { EventHub } from '../events/hub';

/** A message waiting behind another one to its pane longer than this stays in the inbox. */
export const QUEUE_LIMIT_MS = 2 * 60_000;

/** A walky receipt state from a send's receipt, pure. */
export function fromSend(r: SendReceipt): { state: WalkyState; reason: string | null } {
  switch (r.state) {
    case 'scheduled':
    case 'queued':
    case 'held':
    case 'typing':
      return { state: 'accepted', reason: null };
    case 'typed':
      return { state: 'delivered', reason: null };
    case 'not_submitted':
      // Some of it may be in the box: never typed again, and said so.
      return { state: 'unknown', reason: 'typed, not submitted' };
    case 'not_sent':
      if (r.outcome === OUTCOME.draft) return { state: 'inbox-only', reason: INBOX_REASON.draft };
      if (r.outcome === OUTCOME.timedOut) return { state: 'inbox-only', reason: INBOX_REASON.busy };
      if (r.outcome === OUTCOME.paneGone) return { state: 'inbox-only', reason: INBOX_REASON.gone };
      if (r.outcome === OUTCOME.notSaved) return { state: 'inbox-only', reason: INBOX_REASON.notSaved };
      return { state: 'inbox-only', reason: r.outcome.replace(/^not sent: /, '') };
  }
}

export interface DeliveryDeps {
  /** The send protocol, reused: FIFO per pane, holds, drafts, verify before Enter. */
  send(paneId: string, text: string, requestId: string): Promise<SendReceipt>;
  /** The send protocol's stored receipt for an id, if it has one (after a restart). */
  receiptOf(requestId: string): SendReceipt | undefined;
  hub: Pick<EventHub, 'subscribe'>;
  /** Apply a receipt change to the message. */
  settle(id: string, state: WalkyState, reason: string | null): void;
  queueMs?: number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => () => void;
}

interface Waiting {
  id: string;
  text: string;
  cancel: () => void;
}

/**
 * Hands messages to the send protocol one at a time per pane: two messages to one pane are
 * typed one after the other, never into each other, and a message that waits behind another
 * for 2 minutes stays in the inbox as `pane busy`. The hold itself (a turn, a dialog) is the
 * send protocol's, 10 minutes.
 */
export class Delivery {
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly handed = new Map<string, string>();
  private readonly paneOf = new Map<string, string>();
  private readonly off: () => void;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => () => void;

  constructor(private readonly d: DeliveryDeps) {
    this.now = d.now ?? Date.now;
    this.setTimer =
      d.setTimer ??
      ((fn, ms) => {
        const t = setTimeout(fn, ms);
        return () => clearTimeout(t);
      });
    this.off = d.hub.subscribe((e) => {
      if (e.type === 'send.updated' && this.paneOf.has(e.receipt.requestId)) this.onReceipt(e.receipt);
    });
  }

  /** A message accepted at `at` for `paneId`: typed when the pane's earlier messages are done. */
  enqueue(paneId: string, id: string, text: string, at: number): void {
    const left = at + (this.d.queueMs ?? QUEUE_LIMIT_MS) - this.now();
    const w: Waiting = { id, text, cancel: () => undefined };
    w.cancel = this.setTimer(() => this.expire(paneId, id), Math.max(0, left));
    this.paneOf.set(id, paneId);
    this.waiting.set(paneId, [...(this.waiting.get(paneId) ?? []), w]);
    this.pump(paneId);
  }

  /**
   * After a restart: a message the send protocol already knows is followed (it resumes its
   * own waiting sends); one it never got is queued again, since nothing of it was typed.
   */
  resume(paneId: string, id: string, text: string, at: number): void {
    const r = this.d.receiptOf(id);
    if (!r) return this.enqueue(paneId, id, text, at);
    this.paneOf.set(id, paneId);
    if (r.final) return this.onReceipt(r);
    this.handed.set(paneId, id);
  }

  stop(): void {
    this.off();
    for (const list of this.waiting.values()) for (const w of list) w.cancel();
    this.waiting.clear();
  }

  private pump(paneId: string): void {
    if (this.handed.has(paneId)) return;
    const list = this.waiting.get(paneId) ?? [];
    const next = list.shift();
    if (list.length === 0) this.waiting.delete(paneId);
    if (!next) return;
    next.cancel();
    this.handed.set(paneId, next.id);
    this.d.send(paneId, next.text, next.id).then(
      (r) => this.onReceipt(r),
      (err: unknown) => this.finish(paneId, next.id, 'inbox-only', (err as Error).message),
    );
  }

  private onReceipt(r: SendReceipt): void {
    const paneId = this.paneOf.get(r.requestId);
    if (paneId === undefined) return;
    const { state, reason } = fromSend(r);
    if (!r.final) return this.d.settle(r.requestId, state, reason);
    this.finish(paneId, r.requestId, state, reason);
  }

  private finish(paneId: string, id: string, state: WalkyState, reason: string | null): void {
    this.paneOf.delete(id);
    this.d.settle(id, state, reason);
    if (this.handed.get(paneId) === id) this.handed.delete(paneId);
    this.pump(paneId);
  }

  private expire(paneId: string, id: string): void {
    const list = this.waiting.get(paneId);
    const at = list?.findIndex((w) => w.id === id) ?? -1;
    if (!list || at < 0) return; // handed over meanwhile: the send protocol's hold rules now
    list.splice(at, 1);
    if (list.length === 0) this.waiting.delete(paneId);
    this.paneOf.delete(id);
    this.d.settle(id, 'inbox-only', INBOX_REASON.busy);
  }
}
