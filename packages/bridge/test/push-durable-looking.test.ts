import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPushService, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import { startBridge } from '../src/bridge';
import { agentIn, FAST, post, serveAgent, writeSources } from './durable-kit';
import { until, type TestBridge } from './harness';
import { isShow, payloadOf, pushCall, subscribeDevice } from './push-kit';

const perm = { kind: 'permission' as const, title: 'Write notes/today.md?', options: [{ id: 'y', action: 'allow' as const, label: 'Yes' }, { id: 'n', action: 'deny' as const, label: 'No' }] };

/**
 * While the app is open somewhere nobody is pushed, so a durable question asked then shows on
 * no lock screen, and its answer must withdraw nothing: a withdrawal wakes the phone too, for a
 * push it never got. The soak found it with a Chromium page on the dashboard the whole run: 23
 * withdrawals of durable pushes never shown, none shown.
 */
describe('a durable question while someone is looking', () => {
  it('pushes nothing and, once answered, withdraws nothing', async () => {
    await using state = await tempDir('collie-durable-looking');
    await using service = await startPushService();
    const config = join(state.path, 'config');
    const served = await serveAgent('socket', state.path);
    await writeSources(config, [served.source]);
    const device = await testDevice(state.path);
    await using bridge: TestBridge = Object.assign(
      await startBridge(testBridgeOptions(join(state.path, 'no-tmux'), state.path, { configDir: config, durableBackoff: FAST, push: { ca: service.ca, loopbackEndpoints: true, backoff: [50, 100, 200] } })),
      { device },
    );
    await subscribeDevice(bridge, service.subscribe());
    await agentIn(bridge.hub, 'desk');
    // The app is open and visible on this device, as the page reports it.
    expect((await pushCall(bridge, '/presence', { visible: true })).status).toBe(200);

    const c = served.agent.open({ title: 'Morning notes' });
    const q = c.ask({ ...perm, toolCall: { id: 'call-9', name: 'write_file' } });
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
