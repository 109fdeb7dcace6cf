import { describe, expect, it } from 'vitest';
import { PUSH_CAPS } from '@collie/protocol';
import { blocked } from '../src/push/test-pane';
import { hubPush, isShow, payloadOf } from './push-kit';

/**
 * A burst of 100 questions from one agent, through the real push service (the event hub, the
 * planner, `PushDecider.once`, web-push) to the stand-in push service at the wire: the caps hold.
 */
describe('caps at the wire', () => {
  it('100 questions at once from one agent reach the push service as 10 pushes (the per-minute cap), never a flood', async () => {
    await using rig = await hubPush();
    const { hub, push, service } = rig;
    for (let i = 0; i < 100; i++) hub.publish({ type: 'pane.added', pane: blocked(`t:%${i}`, `rm -rf ./build-${i}`) });
    // Another agent's question, asked last: its push is decided after all 100.
    hub.publish({ type: 'pane.added', pane: blocked('t:%999', 'ls', { harness: 'codex', label: 'other#main' }) });
    await service.next((p) => isShow(p, (x) => x.title === 'Permission needed in other#main'), 30_000);
    // A test push behind them all: everything decided before it has been delivered too.
    expect((await push.test('dev')).sent).toBe(1);
    const shows = service.received.filter((p) => isShow(p) && (payloadOf(p) as { kind: string }).kind !== 'test');
    const claude = shows.filter((p) => isShow(p, (x) => x.title === 'Permission needed in collie#main'));
    expect(claude).toHaveLength(PUSH_CAPS.perAgentMinute);
    expect(shows).toHaveLength(PUSH_CAPS.perAgentMinute + 1);
    expect(new Set(claude.map((p) => (payloadOf(p) as { tag: string }).tag)).size).toBe(PUSH_CAPS.perAgentMinute);
    expect(service.refused).toEqual([]);
  }, 60_000);
});
