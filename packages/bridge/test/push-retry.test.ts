import { describe, expect, it } from 'vitest';
import { blocked } from '../src/push/test-pane';
import { hubPush, isShow, payloadOf } from './push-kit';

/** A push the push service turns away for a while, through the real push service to the stand-in at the wire. */
describe('a push tried again', () => {
  it('a 503 and a 429 are tried again after the backoff, each said in the log with its tag; the ask shows once', async () => {
    const lines: string[] = [];
    await using rig = await hubPush({ log: (l) => lines.push(l), backoff: [50, 100, 200] });
    const { hub, push, service } = rig;
    service.answerNext(0, 503, 429);
    hub.publish({ type: 'pane.added', pane: blocked('t:%1', 'make build') });
    const shown = payloadOf(await service.next((p) => isShow(p)));
    // A test push behind it: the ask's delivery is over.
    expect((await push.test('dev')).sent).toBe(1);
    expect(service.received.filter((p) => isShow(p, (x) => x.kind === 'blocked'))).toHaveLength(1);
    expect(service.statuses.slice(0, 3)).toEqual([503, 429, 201]);
    expect(lines).toEqual([`push: a push (${shown.tag}) tried again in 50 ms after HTTP 503`, `push: a push (${shown.tag}) tried again in 100 ms after HTTP 429`]);
  });
});
