import { describe, expect, it } from 'vitest';
import { DurableAgent, type AskResult } from '../src/index';

/** The outcome rules, called in process (the conformance tests run the same over a socket). */
function setup() {
  let now = 1_000_000;
  const agent = new DurableAgent({ runtime: 'test', now: () => now, onMessage: () => undefined, onStop: () => undefined });
  const c = agent.open({ title: 'T' });
  c.startTurn();
  const perm = () =>
    c.ask({ kind: 'permission', title: 'Run?', options: [{ id: 'y', action: 'allow', label: 'Yes' }, { id: 'n', action: 'deny', label: 'No' }], expiresInMs: 60_000 });
  const answer = (questionId: string, requestId: string, option = 'y', version = 0) =>
    agent.call('/answer', { requestId, conversationId: c.id, questionId, version, answer: { kind: 'permission', option } });
  return { agent, c, perm, answer, tick: (ms: number) => (now += ms) };
}

describe('the SDK outcome rules', () => {
  it('takes an answer once; the same request id again gets the same result, another gets already_answered', async () => {
    const { perm, answer } = setup();
    const q = perm();
    expect((await answer(q.question.id, 'r1')).outcome).toBe('taken');
    expect((await answer(q.question.id, 'r1')).outcome).toBe('taken');
    expect((await answer(q.question.id, 'r2')).outcome).toBe('already_answered');
    const r: AskResult = await q;
    expect(r).toEqual({ status: 'answered', answer: { kind: 'permission', option: 'y' }, requestId: 'r1' });
  });

  it('decided, timed out, changed, refused, not open', async () => {
    const { perm, answer, tick } = setup();
    const a = perm();
    a.decide();
    expect((await answer(a.question.id, 'd1')).outcome).toBe('decided');
    expect(await a).toEqual({ status: 'decided' });

    const b = perm();
    tick(60_001);
    expect((await answer(b.question.id, 't1')).outcome).toBe('timed_out');
    expect(await b).toEqual({ status: 'expired' });

    const c = perm();
    c.update({ kind: 'permission', title: 'Run this instead?', options: [{ id: 'y', action: 'allow', label: 'Yes' }] });
    expect((await answer(c.question.id, 'c1', 'y', 0)).outcome).toBe('changed');
    const bad = await answer(c.question.id, 'c2', 'zzz', 1);
    expect(bad).toMatchObject({ outcome: 'refused', reason: 'That option is not one of the question’s.' });
    expect((await answer(c.question.id, 'c3', 'y', 1)).outcome).toBe('taken');

    expect((await answer('never-asked', 'n1')).outcome).toBe('not_open');
  });

  it('stop ends open questions (a late tap: decided), ends the turn and notes "stopped"; a stop with no turn has moved on', async () => {
    const { agent, c, perm, answer } = setup();
    const q = perm();
    expect((await agent.call('/stop', { requestId: 's1', conversationId: c.id })).outcome).toBe('taken');
    expect(await q).toEqual({ status: 'stopped' });
    expect((await answer(q.question.id, 's2')).outcome).toBe('decided');
    expect(c.items.at(-1)).toMatchObject({ kind: 'notice', text: 'stopped' });
    expect((await agent.call('/stop', { requestId: 's3', conversationId: c.id })).outcome).toBe('moved_on');
  });

  it('cuts a question past its limits and says so', () => {
    const { c } = setup();
    const q = c.ask({ kind: 'choice', title: 'x'.repeat(500), options: Array.from({ length: 12 }, (_, i) => ({ id: `o${i}`, label: `Option ${i}` })) });
    expect(q.question.kind === 'choice' && q.question.options.length).toBe(8);
    expect(q.question.shortened).toBe(true);
    expect(q.question.title.length).toBeLessThanOrEqual(201);
  });

  it('a belt tap naming an older turn has moved on; one naming the newest runs', async () => {
    const { agent, c } = setup();
    let taps = 0;
    c.buttons([{ id: 'b', label: 'Go', icon: 'play', onTap: () => void taps++ }]);
    const old = c.meta.turn;
    c.startTurn();
    expect((await agent.call('/button', { requestId: 'b1', conversationId: c.id, buttonId: 'b', turn: old })).outcome).toBe('moved_on');
    expect((await agent.call('/button', { requestId: 'b2', conversationId: c.id, buttonId: 'b', turn: c.meta.turn })).outcome).toBe('taken');
    expect(taps).toBe(1);
  });
});
