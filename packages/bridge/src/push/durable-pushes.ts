import { createHash } from 'node:crypto';
import type { DurableConversation, DurablePush } from '@collie/protocol';

export interface DurableShow {
  kind: 'durable' | 'flood';
  tag: string;
  title: string;
  body: string;
  url: string;
}

const tagOf = (agent: string, conversation: string, question: string) =>
  `durable-${createHash('sha256').update(JSON.stringify([agent, conversation, question])).digest('base64url').slice(0, 22)}`;

/**
 * Durable agents' pushes, as `durable/pushes.ts` decided them (once-only and caps there), made
 * into notifications; each pushed question is withdrawn when it leaves its conversation's open
 * questions (answered anywhere, timed out, or the conversation closed).
 */
export class DurablePushes {
  /** tag → where the question lives. */
  private readonly pushed = new Map<string, { agent: string; conversation: string; question: string }>();

  /** `show` says whether the push went out (not while someone is looking, nor for a kind turned off). */
  constructor(private readonly d: { show: (s: DurableShow) => boolean; withdraw: (tag: string) => void }) {}

  decided(p: DurablePush): void {
    if (p.kind === 'flood' || p.conversationId === null || p.questionId === null) {
      this.d.show({ kind: 'flood', tag: `flood-durable-${p.agent}`.slice(0, 120), title: p.heading, body: '', url: `#/durable/${encodeURIComponent(p.agent)}` });
      return;
    }
    const tag = tagOf(p.agent, p.conversationId, p.questionId);
    const body = [p.title, p.line].filter((s): s is string => !!s).join('\n') || 'A question waits for your answer.';
    // Only a push that went out is withdrawn later: a withdrawal wakes the phone too.
    if (this.d.show({ kind: 'durable', tag, title: p.heading, body, url: `#/durable/${encodeURIComponent(p.agent)}/${encodeURIComponent(p.conversationId)}` })) {
      this.pushed.set(tag, { agent: p.agent, conversation: p.conversationId, question: p.questionId });
    }
  }

  conversation(c: DurableConversation): void {
    const open = new Set(c.questions.map((q) => q.id));
    for (const [tag, at] of this.pushed) if (at.agent === c.agent && at.conversation === c.id && !open.has(at.question)) this.drop(tag);
  }

  removed(agent: string, conversation: string | null): void {
    for (const [tag, at] of this.pushed) if (at.agent === agent && (conversation === null || at.conversation === conversation)) this.drop(tag);
  }

  private drop(tag: string): void {
    this.pushed.delete(tag);
    this.d.withdraw(tag);
  }
}
