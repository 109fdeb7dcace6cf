import { DurableAgent, serve, type Ask, type Calls, type Listening, type QuestionSpec } from '@collie/durable-sdk';
import type { WireResult } from '@collie/protocol';

export const HOUR = 3_600_000;

/** What the scripted agent does when an answer to one question arrives, before the SDK takes it. */
export type Script = 'pass' | 'throw' | 'other-first';

/**
 * A durable agent built on the SDK, serving the real wire on a real socket, whose answers a
 * test scripts per question: it acts first (decides, changes the ask, lets another answer in)
 * and then lets the SDK answer, or drops the line. Its clock runs two hours behind, so an
 * expiry the phone counts down is still far off for the agent until a test moves it on.
 */
export class Asker extends DurableAgent {
  readonly clock: { offset: number };
  readonly scripts = new Map<string, () => Script | Promise<Script>>();
  readonly asks = new Map<string, Ask>();
  /** Every answer call, in order: which question and which request id. */
  readonly answers: { questionId: string; requestId: string }[] = [];

  constructor(clock = { offset: -2 * HOUR }) {
    super({ runtime: 'asker', now: () => Date.now() + clock.offset, onStop: () => undefined });
    this.clock = clock;
  }

  override async call<P extends keyof Calls>(path: P, body: Calls[P]): Promise<WireResult> {
    if ('questionId' in body && typeof body.questionId === 'string') {
      this.answers.push({ questionId: body.questionId, requestId: body.requestId });
      const script = this.scripts.get(body.questionId);
      this.scripts.delete(body.questionId);
      const act = script ? await script() : 'pass';
      if (act === 'throw') throw new Error('the line dropped on the way');
      if (act === 'other-first') await super.call(path, { ...body, requestId: `${body.requestId}-elsewhere` });
    }
    return super.call(path, body);
  }

  /** Ask in a conversation, keeping the handle by the question's id. */
  ask(conversationId: string, spec: QuestionSpec & { id: string }): Ask {
    const c = this.conversations.get(conversationId);
    if (!c) throw new Error(`no conversation ${conversationId}`);
    const a = c.ask(spec);
    this.asks.set(spec.id, a);
    return a;
  }

  serveOn(socket: string): Promise<Listening> {
    return serve(this, { socket });
  }
}
