import {
  appendToItem,
  fitItem,
  fitMeta,
  fitQuestion,
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
}

interface Held {
  meta: ConversationMeta;
  questions: Map<string, WireQuestion>;
}

/** The chat lines of the page's Receipts table, for a question nobody answered from the phone. */
export const RECEIPT_LINES = { timed_out: 'Timed out before an answer:', decided: 'Decided in the durable agent:' } as const;

/**
 * One durable agent's open state as the bridge holds it, and the hub changes each line of its
 * event stream makes. Everything the phone is served goes through `fit*` (cut, cleaned) and
 * the mask first.
 */
export class Mirror {
  readonly held = new Map<string, Held>();

  constructor(private readonly d: MirrorDeps) {}

  apply(e: AgentEvent): void {
    switch (e.type) {
      case 'ping':
      case 'starters':
        return; // starters are the agent record's business (see link.ts)
      case 'sync': {
        const keep = new Set(e.conversations.map((c) => c.id));
        for (const id of [...this.held.keys()]) if (!keep.has(id)) this.remove(id);
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
  }

  view(h: Held): DurableConversation {
    return { ...fitMeta(h.meta, this.d.mask), agent: this.d.agent, questions: [...h.questions.values()].map((q) => fitQuestion(q, this.d.mask)) };
  }

  private whole(c: WireConversation): void {
    const { items, questions, ...meta } = c;
    const had = this.held.get(c.id);
    const h: Held = { meta, questions: new Map() };
    this.held.set(c.id, h);
    const before = new Map((this.d.items(c.id) ?? []).map((i) => [i.id, JSON.stringify(i)]));
    for (const item of items) {
      const fitted = fitItem(item, this.d.mask);
      if (before.get(fitted.id) !== JSON.stringify(fitted)) this.item(c.id, fitted);
    }
    for (const q of questions) h.questions.set(q.id, q);
    const view = this.publishConversation(h);
    for (const q of view.questions) {
      const old = had?.questions.get(q.id);
      if (!old || old.version < q.version) this.d.asked(view, q);
    }
  }

  private publishConversation(h: Held): DurableConversation {
    const conversation = this.view(h);
    this.d.publish({ type: 'durable.conversation.updated', conversation });
    return conversation;
  }

  private item(conversationId: string, item: DurableItem): void {
    if (!this.held.has(conversationId)) return;
    this.d.publish({ type: 'durable.item.updated', agent: this.d.agent, conversationId, item });
  }

  private remove(id: string): void {
    if (!this.held.delete(id)) return;
    this.d.publish({ type: 'durable.conversation.removed', agent: this.d.agent, id });
  }
}
