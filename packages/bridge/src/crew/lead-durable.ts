/**
 * Members' durable agents on the lead: each member's agents, conversations and items merged
 * into the lead's one Durable agents section as `@<member>/<name>`, `machine` the member's name,
 * masked again with the lead's setting. A member that drops keeps its agents, `unreachable`.
 */
import { conversationKey, fitItem, fitMeta, fitStarters, leadAgentName, type DurableAgent, type DurableConversation, type DurableItem, type DurableSnapshot, type ModelEvent } from '@collie/protocol';
import type { EventHub } from '../events/hub';

type Mask = (text: string) => string;
type DurableEvent = Extract<ModelEvent, { type: `durable.${string}` }>;

export function maskAgent(a: DurableAgent, member: string, mask: Mask): DurableAgent {
  return {
    ...a,
    name: leadAgentName(member, a.name),
    machine: member,
    problem: a.problem === null ? null : mask(a.problem),
    caution: a.caution === null ? null : mask(a.caution),
    starters: fitStarters(a.starters, mask),
  };
}

export function maskConversation(c: DurableConversation, member: string, mask: Mask): DurableConversation {
  const questions = c.questions.map((q) => ({ ...q, title: mask(q.title), body: q.body === null ? null : mask(q.body) }));
  return { ...fitMeta(c, mask), agent: leadAgentName(member, c.agent), questions } as DurableConversation;
}

export function maskItem(i: DurableItem, mask: Mask): DurableItem {
  const fitted = fitItem(i, mask);
  return { ...fitted, shortened: fitted.shortened || i.shortened, receipt: i.receipt };
}

export class MemberDurable {
  /** Lead-side agent names per member. */
  private readonly agents = new Map<string, Set<string>>();

  constructor(
    private readonly hub: EventHub,
    private readonly mask: Mask,
  ) {}

  /** The member's durable part at (re)connect: what it no longer has goes. */
  hello(member: string, snap: DurableSnapshot | undefined): void {
    const before = this.agents.get(member) ?? new Set<string>();
    const now = new Set<string>();
    for (const a of snap?.agents ?? []) {
      const up = maskAgent(a, member, this.mask);
      now.add(up.name);
      this.hub.publish({ type: 'durable.agent.updated', agent: up });
    }
    for (const name of before) if (!now.has(name)) this.hub.publish({ type: 'durable.agent.removed', name });
    this.agents.set(member, now);
    const open = new Set<string>();
    for (const c of snap?.conversations ?? []) {
      const up = maskConversation(c, member, this.mask);
      open.add(conversationKey(up.agent, up.id));
      this.hub.publish({ type: 'durable.conversation.updated', conversation: up });
    }
    // Conversations closed while the member was away leave the open list.
    for (const c of [...this.hub.durable.conversations.values()]) {
      if (now.has(c.agent) && !open.has(conversationKey(c.agent, c.id))) this.hub.publish({ type: 'durable.conversation.removed', agent: c.agent, id: c.id });
    }
    for (const t of snap?.threads ?? []) {
      for (const item of t.items) this.hub.publish({ type: 'durable.item.updated', agent: leadAgentName(member, t.agent), conversationId: t.conversationId, item: maskItem(item, this.mask) });
    }
  }

  event(member: string, e: DurableEvent): void {
    const mine = this.agents.get(member) ?? new Set<string>();
    this.agents.set(member, mine);
    switch (e.type) {
      case 'durable.agent.updated': {
        const up = maskAgent(e.agent, member, this.mask);
        mine.add(up.name);
        return void this.hub.publish({ type: 'durable.agent.updated', agent: up });
      }
      case 'durable.agent.removed': {
        const name = leadAgentName(member, e.name);
        mine.delete(name);
        return void this.hub.publish({ type: 'durable.agent.removed', name });
      }
      case 'durable.conversation.updated':
        return void this.hub.publish({ type: 'durable.conversation.updated', conversation: maskConversation(e.conversation, member, this.mask) });
      case 'durable.conversation.removed':
        return void this.hub.publish({ type: 'durable.conversation.removed', agent: leadAgentName(member, e.agent), id: e.id });
      case 'durable.item.updated':
        return void this.hub.publish({ type: 'durable.item.updated', agent: leadAgentName(member, e.agent), conversationId: e.conversationId, item: maskItem(e.item, this.mask) });
    }
  }

  /** The member dropped: its agents stay, unreachable, saying why. */
  grey(member: string, lastSeen: number): void {
    for (const name of this.agents.get(member) ?? []) {
      const a = this.hub.durable.agents.get(name);
      if (a) this.hub.publish({ type: 'durable.agent.updated', agent: { ...a, state: 'unreachable', problem: `${member} is not connected to the lead (last seen ${new Date(lastSeen).toISOString().slice(11, 16)} UTC).` } });
    }
  }

  /** The member was removed: its agents leave the lead. */
  forget(member: string): void {
    for (const name of this.agents.get(member) ?? []) this.hub.publish({ type: 'durable.agent.removed', name });
    this.agents.delete(member);
  }
}
