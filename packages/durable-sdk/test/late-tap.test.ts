import { describe, expect, it } from 'vitest';
import type { WireAnswer } from '@collie/protocol';
import { DurableAgent } from '../src/index';

/**
 * An expired ask (the page: "Past the expiry the buttons stay, and the durable agent answers a
 * late tap itself"): at its expiry the ask resolves `expired` but its question stays open, so the
 * card keeps its buttons and reads "Expired"; a late tap is timed out unless the author's
 * `onLateTap` takes it. Real timers: the expiry fires on its own.
 */
function setup(onLateTap?: (answer: WireAnswer) => boolean) {
  const agent = new DurableAgent({ runtime: 'late', onMessage: () => undefined, onStop: () => undefined });
  const c = agent.open({ title: 'Late' });
  c.startTurn();
  const ask = c.ask({ kind: 'choice', title: 'Which?', options: [{ id: 'a', label: 'A' }], expiresInMs: 50, ...(onLateTap ? { onLateTap } : {}) });
  const tap = (requestId: string) => agent.call('/answer', { requestId, conversationId: c.id, questionId: ask.question.id, version: 0, answer: { kind: 'choice', options: ['a'] } });
  return { c, ask, tap };
}

describe('an expired ask', () => {
  it('resolves expired at its expiry and keeps its question open; a late tap is timed out, then the question ends', async () => {
    const { c, ask, tap } = setup();
    expect(await ask).toEqual({ status: 'expired' });
    expect(c.openQuestions().map((q) => q.id)).toEqual([ask.question.id]);
    expect((await tap('late-1')).outcome).toBe('timed_out');
    expect(c.openQuestions()).toEqual([]);
  });

  it("the author's onLateTap takes a late tap: taken, with the answer in its hands", async () => {
    const got: WireAnswer[] = [];
    const { c, ask, tap } = setup((a) => (got.push(a), true));
    expect(await ask).toEqual({ status: 'expired' });
    expect((await tap('late-2')).outcome).toBe('taken');
    expect(got).toEqual([{ kind: 'choice', options: ['a'] }]);
    expect(c.openQuestions()).toEqual([]);
  });
});

describe('timeOut', () => {
  it('ends an expired question as timed out: the ask stays expired, the question ends, a tap is timed out', async () => {
    const { c, ask, tap } = setup(() => true);
    expect(await ask).toEqual({ status: 'expired' });
    ask.timeOut();
    expect(c.openQuestions()).toEqual([]);
    expect(ask.ended).toBe('timed_out');
    expect((await tap('late-3')).outcome).toBe('timed_out');
  });
});
