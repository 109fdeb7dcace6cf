import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorBody, PushStatus } from '@collie/protocol';
import { startPushService, tempDir } from '@collie/testkit';
import { pushBridge, pushCall } from './push-kit';

describe('the push routes under hostile input', () => {
  it('any body to any push route is answered 400 in words (never 5xx), and the bridge keeps answering', async () => {
    await using tmux = await tempDir('collie-tmux');
    await using state = await tempDir('collie-state');
    await using service = await startPushService();
    await using bridge = await pushBridge(tmux.path, state.path, service);
    const good = service.subscribe();
    // Endpoints are the stand-in's or not https: a fuzzed subscription never sends a push off this machine.
    const near = fc.record({ subscription: fc.record({ endpoint: fc.oneof(fc.webUrl().map((u) => u.replace(/^https:/, 'http:')), fc.constant(good.endpoint), fc.string()), keys: fc.record({ p256dh: fc.oneof(fc.string(), fc.constant(good.keys.p256dh)), auth: fc.string({ maxLength: 30 }) }, { requiredKeys: [] }) }, { requiredKeys: [] }) });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/subscribe', '/unsubscribe', '/prefs', '/presence', '/test'), fc.oneof(fc.jsonValue(), near), async (path, body) => {
        const r = await pushCall(bridge, path, body);
        if (r.status !== 200) {
          expect(r.status).toBe(r.status === 409 ? 409 : 400);
          expect(ErrorBody.parse(r.json).error.message).toMatch(/^bridge: /);
        }
      }),
      { numRuns: 150 },
    );
    const res = await fetch(`${bridge.url}/api/push/subscribe`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: '{"subscription":' });
    expect(res.status).toBe(400);
    expect(PushStatus.parse((await pushCall(bridge, '')).json).publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
  }, 120_000);
});
