import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorBody, PushTestResult } from '@collie/protocol';
import { startPushService, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import { startBridge } from '../../src/bridge';
import { safeLookup } from '../../src/push/endpoint-lookup';
import { pushCall } from '../push-kit';

/**
 * The attack: a paired phone subscribes with a push endpoint on loopback or the LAN, and a
 * test push makes the bridge connect there. A real bridge (no test allowance) refuses every
 * such endpoint with `400 bad_endpoint`, never sends to one kept from before, and refuses a
 * public name that resolves to a private address when it connects.
 */
describe('security: the bridge pushes only to https endpoints on public host names (real bridge, a listening stand-in)', () => {
  it('refuses loopback, LAN, link-local and odd IP spellings, and the stand-in is never reached', async () => {
    await using state = await tempDir('collie-state');
    await using service = await startPushService();
    const device = await testDevice(state.path);
    // The stand-in's CA is trusted, but nothing lets loopback endpoints in.
    await using b = await startBridge(testBridgeOptions(join(state.path, 'no-tmux'), state.path, { push: { ca: service.ca, backoff: [] } }));
    const bridge = Object.assign(b, { device });
    const sub = service.subscribe();
    const port = new URL(service.url).port;
    const endpoints = [
      sub.endpoint,
      `https://localhost:${port}/push/0`,
      `https://push.localhost:${port}/push/0`,
      `https://[::1]:${port}/push/0`,
      `https://[::ffff:127.0.0.1]:${port}/push/0`,
      `https://0x7f000001:${port}/push/0`,
      `https://2130706433:${port}/push/0`,
      `https://0177.0.0.1:${port}/push/0`,
      `https://127.1:${port}/push/0`,
      'https://10.1.2.3/push',
      'https://172.20.0.1/push',
      'https://192.168.1.10/push',
      'https://100.100.100.100/push',
      'https://169.254.169.254/latest/meta-data',
      'https://0.0.0.0/push',
      'https://[fd00::1]/push',
      'https://[fe80::1]/push',
      'https://8.8.8.8/push',
      'https://router/push',
      'https://printer.local/push',
      'http://fcm.googleapis.com/fcm/send/x',
    ];
    for (const endpoint of endpoints) {
      const r = await pushCall(bridge, '/subscribe', { subscription: { ...sub, endpoint } });
      expect(r.status, `${endpoint}: ${JSON.stringify(r.json)}`).toBe(400);
      expect(ErrorBody.parse(r.json).error.code, endpoint).toBe('bad_endpoint');
    }
    const test = await pushCall(bridge, '/test', {});
    expect(PushTestResult.parse(test.json)).toEqual({ sent: 0, failed: 0 });
    expect(service.statuses).toEqual([]);
  });

  it('never sends to a loopback endpoint kept from before', async () => {
    await using state = await tempDir('collie-state');
    await using service = await startPushService();
    const device = await testDevice(state.path);
    const sub = service.subscribe();
    await mkdir(join(state.path, 'push'), { recursive: true, mode: 0o700 });
    const prefs = { kinds: { blocked: true, finished: false, durable: true, messages: true }, quiet: null, lockScreen: false };
    await writeFile(join(state.path, 'push', 'subscriptions.json'), JSON.stringify({ subscriptions: [{ device: device.id, subscription: sub, addedAt: Date.now() }], prefs }), { mode: 0o600 });
    await using b = await startBridge(testBridgeOptions(join(state.path, 'no-tmux'), state.path, { push: { ca: service.ca, backoff: [] } }));
    const test = await pushCall(Object.assign(b, { device }), '/test', {});
    expect(PushTestResult.parse(test.json)).toEqual({ sent: 0, failed: 1 });
    expect(service.statuses).toEqual([]);
  });

  it('refuses, when it connects, a name that resolves to a private address (DNS rebinding)', async () => {
    const lookup = safeLookup({ loopback: false });
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => lookup('localhost', {}, (e) => resolve(e)));
    expect(err?.message).toMatch(/localhost resolves to .*, not a public address/);
    const allowed = safeLookup({ loopback: true });
    const ok = await new Promise<NodeJS.ErrnoException | null>((resolve) => allowed('localhost', {}, (e) => resolve(e)));
    expect(ok).toBeNull();
  });
});
