import { jsonBytes, KeepLedger } from './keep';
import {
  appendToItem,
  fitItem,
  fitMeta,
  fitQuestion,
  KEPT_NOTICE,
  type AgentEvent,
  type ConversationMeta,
  type DurableConversation,
  type DurableItem,
  type DurableQuestion,
  type Mask,
  type ModelChange,
  type WireConversation,
  type WireQuestion,
} from '@collie/protocol';

export interface MirrorDeps {
  agent: string;
  publish: (c: ModelChange) => void;
  mask: Mask;
  now: () => number;
  /** The items the hub holds for a conversation (for `item.append`). */
  items: (conversationId: string) => readonly DurableItem[] | undefined;
  /** A question was asked (new, or a new version). */
  asked: (conversation: DurableConversation, question: DurableQuestion) => void;
  /** What the caps did not keep changed: the sentence for the agent's record (keep.ts). */
  kept?: (words: string | null) => void;
}

interface Held {
  meta: ConversationMeta;
  questions: Map<string, WireQuestion>;
}

/** The id of the notice heading a conversation whose older items were dropped. */
const NOTICE_ID = 'collie:kept';

/** The chat lines of the page's Receipts table, for a question nobody answered from the phone. */
export const RECEIPT_LINES = { timed_out: 'Timed out before an answer:', decided: 'Decided in the durable agent:' } as const;

/**
 * One durable agent's open state as the bridge holds it, and the hub changes each line of its
 * event stream makes. Everything the phone is served goes through `fit*` (cut, cleaned) and
 * the mask first.
 */
export class Mirror {
  readonly held = new Map<string, Held>();
  private ledger = new KeepLedger();
  private words: string | null = null;
  private trimming = false;

  constructor(private readonly d: MirrorDeps) {}

  apply(e: AgentEvent): void {
    switch (e.type) {
      case 'ping':
      case 'starters':
        return; // starters are the agent record's business (see link.ts)
      case 'sync': {
        const keep = new Set(e.conversations.map((c) => c.id));
        for (const id of [...this.held.keys()]) if (!keep.has(id)) this.remove(id);
        this.ledger.forgetRefused(keep);
        for (const c of e.conversations) this.whole(c);
        return;
      }
      case 'conversation.opened':
        return this.whole(e.conversation);
      case 'conversation.updated': {
        const h = this.held.get(e.conversation.id);
        if (!h) return this.whole({ ...e.conversation, items: [], questions: [] });
        h.meta = e.conversation;
        this.publishConversation(h);
        return;
      }
      case 'conversation.closed':
        return this.remove(e.id);
      case 'item':
        return this.item(e.conversationId, fitItem(e.item, this.d.mask));
      case 'item.append': {
        const was = this.d.items(e.conversationId)?.findLast((i) => i.id === e.itemId);
        if (was) this.item(e.conversationId, appendToItem(was, e.text, e.final, this.d.mask));
        return;
      }
      case 'question.asked': {
        const h = this.held.get(e.conversationId);
        if (!h) return;
        const had = h.questions.get(e.question.id);
        if (had && had.version >= e.question.version) return;
        h.questions.set(e.question.id, e.question);
        const view = this.publishConversation(h);
        const q = view.questions.find((x) => x.id === e.question.id);
        if (q) this.d.asked(view, q);
        return;
      }
      case 'question.ended': {
        const h = this.held.get(e.conversationId);
        const q = h?.questions.get(e.questionId);
        if (!h || !q) return;
        h.questions.delete(e.questionId);
        this.publishConversation(h);
        if (e.reason === 'timed_out' || e.reason === 'decided') {
          const title = fitQuestion(q, this.d.mask).title;
          const at = this.d.now();
          const text = `${RECEIPT_LINES[e.reason]} ${title}`;
          this.item(e.conversationId, { kind: 'notice', id: `receipt:${q.id}`, at, final: true, text, href: null, shortened: false, receipt: true });
        }
        return;
      }
    }
  }

  /** Drop every conversation (the agent was removed or refused). */
  clear(): void {
    for (const id of [...this.held.keys()]) this.remove(id);
    this.ledger = new KeepLedger();
    this.tell();
  }

  /** The sentence of what the caps did not keep (null: nothing). */
  keptWords(): string | null {
    return this.words;
  }

  view(h: Held): DurableConversation {
    return { ...fitMeta(h.meta, this.d.mask), agent: this.d.agent, questions: [...h.questions.values()].map((q) => fitQuestion(q, this.d.mask)) };
  }

  private whole(c: WireConversation): void {
    const { items, questions, ...meta } = c;
    const had = this.held.get(c.id);
    const h: Held = { meta, questions: new Map(questions.map((q) => [q.id, q])) };
    // Past 100 open conversations, or with no room left for its meta, it is not held.
    const metaBytes = jsonBytes(this.view(h));
    if (!had && !this.ledger.admit(c.id, metaBytes)) return this.tell();
    this.held.set(c.id, h);
    this.ledger.meta(c.id, metaBytes);
    const before = new Map((this.d.items(c.id) ?? []).map((i) => [i.id, JSON.stringify(i)]));
    for (const item of items) {
      const fitted = fitItem(item, this.d.mask);
      if (before.get(fitted.id) !== JSON.stringify(fitted)) this.item(c.id, fitted);
    }
    const view = this.publishConversation(h);
    for (const q of view.questions) {
      const old = had?.questions.get(q.id);
      if (!old || old.version < q.version) this.d.asked(view, q);
    }
  }

  private publishConversation(h: Held): DurableConversation {
    const conversation = this.view(h);
    this.ledger.meta(conversation.id, jsonBytes(conversation));
    this.d.publish({ type: 'durable.conversation.updated', conversation });
    this.trim();
    return conversation;
  }

  private item(conversationId: string, item: DurableItem): void {
    if (!this.held.has(conversationId)) return;
    this.ledger.item(conversationId, item.id, jsonBytes(item));
    this.d.publish({ type: 'durable.item.updated', agent: this.d.agent, conversationId, item });
    this.trim({ conv: conversationId, id: item.id });
  }

  private remove(id: string): void {
    if (!this.held.delete(id)) return;
    this.ledger.remove(id);
    this.d.publish({ type: 'durable.conversation.removed', agent: this.d.agent, id });
  }

  /**
   * Past the agent's bytes: each conversation that loses items is published again from its
   * kept items, headed by a notice saying older ones were dropped (the events have no "item
   * removed", so the conversation is removed and re-added whole).
   */
  private trim(spare?: { conv: string; id: string }): void {
    if (this.trimming) return;
    const drop = this.ledger.over(spare);
    if (drop.size === 0) return this.tell();
    this.trimming = true;
    try {
      for (const [conv, ids] of drop) {
        const h = this.held.get(conv);
        if (!h) continue;
        const kept = (this.d.items(conv) ?? []).filter((i) => !ids.has(i.id) && i.id !== NOTICE_ID);
        this.d.publish({ type: 'durable.conversation.removed', agent: this.d.agent, id: conv });
        this.d.publish({ type: 'durable.conversation.updated', conversation: this.view(h) });
        const notice: DurableItem = { kind: 'notice', id: NOTICE_ID, at: kept[0]?.at ?? this.d.now(), final: true, text: KEPT_NOTICE, href: null, shortened: false, receipt: true };
        for (const item of [notice, ...kept]) this.item(conv, item);
      }
    } finally {
      this.trimming = false;
    }
    this.tell();
  }

  private tell(): void {
    const words = this.ledger.words();
    if (words === this.words) return;
    this.words = words;
    this.d.kept?.(words);
  }
}
