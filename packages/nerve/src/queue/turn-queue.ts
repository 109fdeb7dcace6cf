/**
 * A session's turn queue (spec "The turn queue"): messages that arrive while a turn runs wait
 * here, in Nerve, so the model never sees one during an earlier turn. Pure: the clock and ids
 * are passed in.
 */
import type { QueuedMessage, QueueOrigin } from '@collie/protocol';

/** A client_msg_id seen within this long runs once (a retry after a dropped connection). */
export const DEDUPE_MS = 10 * 60_000;
/** The fixed label an internal trigger is listed with, never its prompt. */
export const INTERNAL_LABEL = 'Scheduled run';

export interface Incoming {
  text: string;
  origin: QueueOrigin;
  channel?: string | null;
  sender?: string | null;
  clientMsgId?: string;
}

export interface Queued extends QueuedMessage {
  text: string;
  /** The sender's id for it (the phone's request id), null when none came. */
  clientMsgId: string | null;
}

export type Admit = { outcome: 'duplicate'; queue_id: string } | { outcome: 'admitted'; item: Queued };
export type Cancel = { ok: true; text: string } | { ok: false; code: 'not_found' | 'not_sender' };
export type Reorder = { ok: true } | { ok: false; message: string };

export class TurnQueue {
  private items: Queued[] = [];
  private readonly seen = new Map<string, { at: number; queueId: string }>();

  constructor(
    private readonly now: () => number,
    private readonly newId: () => string,
  ) {}

  /** Checks the client_msg_id and makes the item; the caller either runs it or {@link push}es it. */
  admit(m: Incoming): Admit {
    const now = this.now();
    for (const [id, s] of this.seen) if (now - s.at > DEDUPE_MS) this.seen.delete(id);
    if (m.clientMsgId) {
      const s = this.seen.get(m.clientMsgId);
      if (s) return { outcome: 'duplicate', queue_id: s.queueId };
    }
    const queueId = this.newId();
    if (m.clientMsgId) this.seen.set(m.clientMsgId, { at: now, queueId });
    const preview = m.origin === 'internal' ? INTERNAL_LABEL : m.text.replace(/\s+/g, ' ').trim().slice(0, 120);
    return {
      outcome: 'admitted',
      item: { queue_id: queueId, text: m.text, preview, origin: m.origin, channel: m.channel ?? null, sender: m.sender ?? null, queued_at: now, clientMsgId: m.clientMsgId ?? null },
    };
  }

  /** New messages go to the end. */
  push(item: Queued): void {
    this.items.push(item);
  }

  /** A message handed to a runtime that ended before it took it: first again. */
  putBack(item: Queued): void {
    this.items.unshift(item);
  }

  /** The first queued message: the run lock goes straight to it when a turn ends. */
  take(): Queued | undefined {
    return this.items.shift();
  }

  list(): QueuedMessage[] {
    return this.items.map(({ text: _text, clientMsgId: _id, ...rest }) => rest);
  }

  get size(): number {
    return this.items.length;
  }

  /** Only its sender can cancel a message; its text comes back. */
  cancel(queueId: string, sender: string | null): Cancel {
    const i = this.items.findIndex((q) => q.queue_id === queueId);
    const item = this.items[i];
    if (!item) return { ok: false, code: 'not_found' };
    if (item.sender !== sender) return { ok: false, code: 'not_sender' };
    this.items.splice(i, 1);
    return { ok: true, text: item.text };
  }

  /** Puts the named messages first in the given order; the others keep theirs after them. */
  reorder(order: readonly string[]): Reorder {
    if (new Set(order).size !== order.length) return { ok: false, message: 'order names a message twice' };
    const byId = new Map(this.items.map((q) => [q.queue_id, q]));
    const unknown = order.find((id) => !byId.has(id));
    if (unknown !== undefined) return { ok: false, message: `no queued message ${unknown}` };
    const first = order.map((id) => byId.get(id)!);
    this.items = [...first, ...this.items.filter((q) => !order.includes(q.queue_id))];
    return { ok: true };
  }
}
