import { LIMITS } from './limits';
import type { DurableAgent, DurableConversation, DurableItem, DurableSnapshot } from './model';

/**
 * The durable part of the model, and how each `durable.*` event changes it. Shared by the
 * bridge's hub and the phone's reducer so the two cannot drift. The fold only ever calls `set`
 * and `delete` on the three maps and replaces (never edits) the values in them: the hub folds
 * into its own maps, the phone into shallow copies (`copyDurable`) so React sees new objects.
 */
export interface DurableState {
  agents: Map<string, DurableAgent>;
  /** By `conversationKey(agent, id)`. */
  conversations: Map<string, DurableConversation>;
  threads: Map<string, DurableItem[]>;
}

export type DurableEvent =
  | { type: 'durable.agent.updated'; agent: DurableAgent }
  | { type: 'durable.agent.removed'; name: string }
  | { type: 'durable.conversation.updated'; conversation: DurableConversation }
  | { type: 'durable.conversation.removed'; agent: string; id: string }
  | { type: 'durable.item.updated'; agent: string; conversationId: string; item: DurableItem };

export const conversationKey = (agent: string, id: string): string => `${agent}\n${id}`;

export function emptyDurable(): DurableState {
  return { agents: new Map(), conversations: new Map(), threads: new Map() };
}

export function copyDurable(s: DurableState): DurableState {
  return { agents: new Map(s.agents), conversations: new Map(s.conversations), threads: new Map(s.threads) };
}

export function durableFromSnapshot(snap: DurableSnapshot | undefined): DurableState {
  const s = emptyDurable();
  for (const a of snap?.agents ?? []) s.agents.set(a.name, a);
  for (const c of snap?.conversations ?? []) s.conversations.set(conversationKey(c.agent, c.id), c);
  for (const t of snap?.threads ?? []) s.threads.set(conversationKey(t.agent, t.conversationId), t.items);
  return s;
}

export function durableSnapshot(s: DurableState): DurableSnapshot {
  return {
    agents: [...s.agents.values()],
    conversations: [...s.conversations.values()],
    threads: [...s.conversations.values()].map((c) => ({ agent: c.agent, conversationId: c.id, items: s.threads.get(conversationKey(c.agent, c.id)) ?? [] })),
  };
}

/** Apply one event; true when it was a durable event. */
export function foldDurable(s: DurableState, e: DurableEvent): void {
  switch (e.type) {
    case 'durable.agent.updated':
      s.agents.set(e.agent.name, e.agent);
      return;
    case 'durable.agent.removed':
      s.agents.delete(e.name);
      for (const [k, c] of s.conversations) {
        if (c.agent === e.name) {
          s.conversations.delete(k);
          s.threads.delete(k);
        }
      }
      return;
    case 'durable.conversation.updated':
      s.conversations.set(conversationKey(e.conversation.agent, e.conversation.id), e.conversation);
      return;
    case 'durable.conversation.removed': {
      const k = conversationKey(e.agent, e.id);
      s.conversations.delete(k);
      s.threads.delete(k);
      return;
    }
    case 'durable.item.updated': {
      const k = conversationKey(e.agent, e.conversationId);
      const items = s.threads.get(k) ?? [];
      const at = items.findLastIndex((i) => i.id === e.item.id);
      const next = at >= 0 ? items.with(at, e.item) : [...items, e.item];
      s.threads.set(k, next.length > LIMITS.itemsKept ? next.slice(-LIMITS.itemsKept) : next);
      return;
    }
  }
}
