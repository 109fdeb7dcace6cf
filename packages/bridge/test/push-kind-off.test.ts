import { describe, expect, it } from 'vitest';
import { PUSH_CAPS } from '@collie/protocol';
import { blocked, testPane } from '../src/push/test-pane';
import { hubPush, isShow, payloadOf } from './push-kit';

/**
 * A kind turned off in Settings (finished turns are off by default) shows nothing, so it must take
 * nothing either: not the agent's caps, not the once-only rule, and no withdrawal of a push the
 * phone never got. The soak found it: an agent whose turns ended often used its 10 pushes a minute
 * on finished turns nobody was shown, and its permission asks did not push.
 */
describe('a kind turned off', () => {
  it('finished turns (off) take none of the caps: the agent\'s next ask pushes, and no withdrawal goes out for them', async () => {
    await using rig = await hubPush();
    const { hub, push, service } = rig;
    const turns = PUSH_CAPS.perAgentMinute + 2;
    // Turns that ended (done), each on its own pane, then one ask from the same agent: every
    // timer has the same debounce, so the finished turns are decided before the ask.
    for (let i = 0; i < turns; i++) hub.publish({ type: 'pane.added', pane: testPane({ id: `t:%${i}`, state: 'done', since: 1000 + i }) });
    hub.publish({ type: 'pane.added', pane: blocked('t:%99', 'rm -rf ./build') });
    const ask = await service.next((p) => isShow(p, (x) => x.title === 'Permission needed in collie#main'), 10_000);
    // The turns' panes work again, then the ask is answered: one withdrawal, the ask's.
    for (let i = 0; i < turns; i++) hub.publish({ type: 'pane.updated', pane: testPane({ id: `t:%${i}`, state: 'working', since: 5000 + i }) });
    hub.publish({ type: 'pane.updated', pane: testPane({ id: 't:%99', state: 'idle', since: 6000 }) });
    const tag = (payloadOf(ask) as { tag: string }).tag;
    await service.next((p) => (p.json as { type?: string; tag?: string }).type === 'push.withdraw' && (p.json as { tag: string }).tag === tag, 10_000);
    // A test push after them: everything sent before it has been delivered too.
    expect((await push.test('dev')).sent).toBe(1);
    const withdrawn = service.received.filter((p) => (p.json as { type?: string }).type === 'push.withdraw').map((p) => (p.json as { tag: string }).tag);
    expect(withdrawn).toEqual([tag]);
    expect(service.received.filter((p) => isShow(p, (x) => x.kind !== 'test'))).toHaveLength(1);
    expect(service.refused).toEqual([]);
  }, 60_000);
});
