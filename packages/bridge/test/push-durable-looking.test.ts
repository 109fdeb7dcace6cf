import { describe, expect, it } from 'vitest';
import { post } from './durable-kit';
import { until } from './harness';
import { durablePushDesk, isShow, payloadOf, pushCall, writePermission } from './push-kit';

/**
 * While the app is open somewhere nobody is pushed, so a durable question asked then shows on
 * no lock screen, and its answer must withdraw nothing: a withdrawal wakes the phone too, for a
 * push it never got. The soak found it with a Chromium page on the dashboard the whole run: 23
 * withdrawals of durable pushes never shown, none shown.
 */
describe('a durable question while someone is looking', () => {
  it('pushes nothing and, once answered, withdraws nothing', async () => {
    await using desk = await durablePushDesk('collie-durable-looking');
    const { service, bridge, served } = desk;
    // The app is open and visible on this device, as the page reports it.
    expect((await pushCall(bridge, '/presence', { visible: true })).status).toBe(200);

    const c = served.agent.open({ title: 'Morning notes' });
    const q = c.ask({ ...writePermission, toolCall: { id: 'call-9', name: 'write_file' } });
    await until(bridge.hub, 'the card', (h) => [...h.durable.conversations.values()].some((x) => x.questions.some((y) => y.id === q.question.id)), 20_000);
    const r = await post(bridge, '/answer', { agent: 'desk', conversationId: c.id, questionId: q.question.id, version: q.question.version, answer: { kind: 'permission', option: 'y' }, request_id: 'tap-looking-1' });
    expect(r.outcome).toBe('taken');
    expect(await q).toMatchObject({ status: 'answered', requestId: 'tap-looking-1' });
    await until(bridge.hub, 'the card gone', (h) => ![...h.durable.conversations.values()].some((x) => x.questions.some((y) => y.id === q.question.id)), 20_000);

    // A test push behind them: everything decided before it has reached the service by then.
    expect((await pushCall(bridge, '/test', {})).status).toBe(200);
    await service.next((p) => isShow(p, (x) => (x as { kind?: string }).kind === 'test'), 20_000);
    const types = service.received.map((p) => payloadOf(p)).map((p) => (p.type === 'push.show' ? `show ${p.kind}` : p.type));
    expect(types).toEqual(['show test']);
    await served.on.close();
  }, 90_000);
});
