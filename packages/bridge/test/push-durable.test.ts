import { describe, expect, it } from 'vitest';
import { agentIn, post, serveAgent } from './durable-kit';
import { until } from './harness';
import { durablePushDesk, isShow, isWithdraw, payloadOf, writePermission } from './push-kit';

/** A durable agent's question through the whole chain: SDK → bridge → web-push → the stand-in push service. */
describe('a durable agent\'s question on the lock screen', () => {
  it('pushes once with the question\'s words, is withdrawn when answered, and the same tool call asked again after the agent restarts shows but does not push', async () => {
    await using desk = await durablePushDesk('collie-durable-push');
    const { service, bridge } = desk;
    let served = desk.served;

    const c = served.agent.open({ title: 'Morning notes' });
    const q = c.ask({ ...writePermission, toolCall: { id: 'call-7', name: 'write_file' } });
    const shown = await service.next((p) => isShow(p, (x) => x.title === 'Permission needed in Morning notes'), 20_000);
    const payload = payloadOf(shown);
    if (payload.type !== 'push.show') throw new Error('not a show');
    expect(payload.body).toContain('Write notes/today.md?');
    expect(payload.url).toBe(`#/durable/desk/${encodeURIComponent(c.id)}`);

    // Answered from the phone: the agent takes it, and the push is withdrawn by its tag.
    const r = await post(bridge, '/answer', { agent: 'desk', conversationId: c.id, questionId: q.question.id, version: q.question.version, answer: { kind: 'permission', option: 'y' }, request_id: 'tap-push-1' });
    expect(r.outcome).toBe('taken');
    expect(await q).toMatchObject({ status: 'answered', requestId: 'tap-push-1' });
    await service.next((p) => isWithdraw(p, payload.tag), 20_000);

    // The agent restarts and asks about the same tool call again: the card shows, no second push.
    await served.on.close();
    await agentIn(bridge.hub, 'desk', 'unreachable');
    served = await serveAgent('socket', desk.state);
    await agentIn(bridge.hub, 'desk');
    const again = served.agent.open({ title: 'Morning notes' });
    const q2 = again.ask({ ...writePermission, toolCall: { id: 'call-7', name: 'write_file' } });
    await until(bridge.hub, 'the card again', (h) => [...h.durable.conversations.values()].some((x) => x.questions.some((y) => y.id === q2.question.id)), 20_000);
    // A test push behind it: everything decided before it has reached the service by then.
    const before = service.received.filter((p) => isShow(p)).length;
    const test = await fetch(`${bridge.url}/api/push/test`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: '{}' });
    expect(test.status).toBe(200);
    await service.next((p) => isShow(p, (x) => (x as { kind?: string }).kind === 'test'), 20_000);
    const shows = service.received.filter((p) => isShow(p) && (payloadOf(p) as { kind?: string }).kind !== 'test');
    expect(shows).toHaveLength(1);
    expect(service.received.filter((p) => isShow(p)).length).toBe(before + 1);
    await served.on.close();
  }, 90_000);
});
