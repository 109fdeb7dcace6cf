import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PushStatus } from '@collie/protocol';
import { startPushService, startTmux, tempDir } from '@collie/testkit';
import { pushKeys } from '../src/commands/push';
import { until } from './harness';
import { isShow, isWithdraw, payloadOf, pushBridge, pushCall, subscribeDevice } from './push-kit';
import { fakePane } from './walky/fake-pane';

// Long enough that the bridge sees the picker answered inside it also on a loaded machine: the
// "answered within the debounce" step below depends on the answer being seen before it ends.
const DELAY = 4000;

describe('push over the real Web Push wire (a stand-in push service on loopback)', () => {
  it('a pane that waits on you pushes once after the debounce, with the question\'s words; withdrawn when answered; 410 drops, 429 and 5xx retry', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    await using service = await startPushService();
    const pane = await fakePane(tmux, state.path, 'work', 'fresh-idle');
    await using bridge = await pushBridge(tmux.tmpDir, state.path, service, { delayMs: DELAY });
    const id = `${tmux.name}:${pane.paneId}`;
    await until(bridge.hub, 'the idle pane', (h) => h.panes.get(id)?.state === 'idle', 30_000);

    // Hostile and malformed subscriptions are refused in words; nothing without a device.
    const sub0 = service.subscribe();
    const sub1 = service.subscribe();
    expect((await pushCall(bridge, '', undefined, {})).status).toBe(401);
    expect((await pushCall(bridge, '/subscribe', { subscription: sub0 }, {})).status).toBe(401);
    const plain = await pushCall(bridge, '/subscribe', { subscription: { ...sub0, endpoint: 'http://127.0.0.1:9/push' } });
    expect(plain).toEqual({ status: 400, json: { error: { code: 'bad_endpoint', message: 'bridge: subscription.endpoint: a push service is reached over https' } } });
    const badKey = await pushCall(bridge, '/subscribe', { subscription: { ...sub0, keys: { ...sub0.keys, p256dh: 'x' } } });
    expect(badKey.status).toBe(400);
    expect(JSON.stringify(badKey.json)).toContain('p256dh');
    expect((await pushCall(bridge, '/subscribe', { subscription: sub0, extra: 1 })).status).toBe(400);
    await subscribeDevice(bridge, sub0);
    const status = await subscribeDevice(bridge, sub1);
    expect(status.subscribed).toBe(2);
    expect(status.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);

    // The keys and the subscriptions are 0600 in a 0700 dir; `collie push keys` prints the same key.
    expect((await stat(join(state.path, 'push'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(state.path, 'push', 'vapid.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(state.path, 'push', 'subscriptions.json'))).mode & 0o777).toBe(0o600);
    const keys = await pushKeys({ ...process.env, COLLIE_STATE_DIR: state.path, COLLIE_CONFIG_DIR: join(state.path, 'config') });
    expect(keys).toMatchObject({ publicKey: status.publicKey, created: false });

    // Blocked: after the debounce, one push to each subscription, signed with the bridge's key.
    await pane.draw('permission-edit');
    const blocked = await until(bridge.hub, 'blocked', (h) => (h.panes.get(id)?.state === 'blocked' ? Date.now() : null), 30_000);
    const first = await service.next((p) => p.sub === 0 && isShow(p));
    await service.next((p) => p.sub === 1 && isShow(p));
    expect(first.at - blocked).toBeGreaterThanOrEqual(DELAY - 50);
    expect(first.key).toBe(status.publicKey);
    const shown = payloadOf(first);
    if (shown.type !== 'push.show') throw new Error('not a show');
    expect(shown.title).toMatch(/^Permission needed in /);
    expect(shown.body).toContain('hello.txt');
    expect(shown.body).toContain('Do you want to create hello.txt?');
    expect(shown.url).toBe(`#/pane/${encodeURIComponent(id)}`);
    expect(first.text.length).toBeLessThan(4096);
    expect(first).toMatchObject({ urgency: 'high', ttl: 6 * 3600 });
    expect(first.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);

    // Answered at the desk: the withdrawal, same tag and topic, so a queued push is replaced too.
    await pane.draw('fresh-idle');
    const gone = await service.next((p) => p.sub === 0 && isWithdraw(p, shown.tag));
    expect(gone.topic).toBe(first.topic);
    expect(service.received.filter((p) => isShow(p))).toHaveLength(2);

    // Answered within the debounce: nothing. The next question's push shows none came before it.
    await pane.draw('select-menu');
    await until(bridge.hub, 'the picker', (h) => h.panes.get(id)?.state === 'blocked', 30_000);
    await pane.draw('fresh-idle');
    await until(bridge.hub, 'idle again', (h) => h.panes.get(id)?.state === 'idle', 30_000);
    // 410 from sub 1 drops it; 429 then 503 from sub 0 are tried again and the push lands.
    service.answerNext(1, 410);
    service.answerNext(0, 429, 503);
    await pane.draw('select-multi');
    const multi = await service.next((p) => p.sub === 0 && isShow(p, (x) => x.tag !== shown.tag));
    expect(service.received.filter((p) => isShow(p))).toHaveLength(3);
    expect(payloadOf(multi).type).toBe('push.show');
    expect(service.statuses.slice(-4).sort()).toEqual([201, 410, 429, 503].sort());
    // The drop is written as the 410 comes back: asked until it shows (or 10 s).
    let after = PushStatus.parse((await pushCall(bridge, '')).json);
    for (let i = 0; i < 200 && after.subscribed !== 1; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = PushStatus.parse((await pushCall(bridge, '')).json);
    }
    expect(after.subscribed).toBe(1);
    expect(await readFile(join(state.path, 'push', 'subscriptions.json'), 'utf8')).not.toContain(sub1.endpoint);

    // The test push reaches this device's subscription.
    expect((await pushCall(bridge, '/test', {})).json).toEqual({ sent: 1, failed: 0 });
    await service.next((p) => isShow(p, (x) => x.kind === 'test'));
    expect(service.refused).toEqual([]);
  }, 120_000);

  it('a finished turn pushes once when that kind is on ("Turn finished in"), and is withdrawn when the pane is opened', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    await using service = await startPushService();
    const pane = await fakePane(tmux, state.path, 'work', 'fresh-idle');
    await using bridge = await pushBridge(tmux.tmpDir, state.path, service, { delayMs: 300 });
    const id = `${tmux.name}:${pane.paneId}`;
    await until(bridge.hub, 'the idle pane', (h) => h.panes.get(id)?.state === 'idle', 30_000);
    await subscribeDevice(bridge, service.subscribe());
    const prefs = PushStatus.parse((await pushCall(bridge, '')).json).prefs;
    expect(prefs.kinds.finished).toBe(false);
    // Off by default: a turn that ends pushes nothing (the next question's push shows none came before).
    await pane.draw('working');
    await until(bridge.hub, 'working', (h) => h.panes.get(id)?.state === 'working', 30_000);
    await pane.draw('fresh-idle');
    await until(bridge.hub, 'done', (h) => h.panes.get(id)?.state === 'done', 30_000);
    await pane.draw('working');
    await until(bridge.hub, 'working again', (h) => h.panes.get(id)?.state === 'working', 30_000);
    expect((await pushCall(bridge, '/prefs', { prefs: { ...prefs, kinds: { ...prefs.kinds, finished: true } } })).status).toBe(200);
    await pane.draw('fresh-idle');
    await until(bridge.hub, 'done again', (h) => h.panes.get(id)?.state === 'done', 30_000);
    const pushed = await service.next((p) => isShow(p));
    const shown = payloadOf(pushed);
    if (shown.type !== 'push.show') throw new Error('not a show');
    expect(shown).toMatchObject({ kind: 'finished', title: expect.stringMatching(/^Turn finished in /), body: 'The agent waits for your next message.', url: `#/pane/${encodeURIComponent(id)}` });
    expect(service.received.filter((p) => isShow(p))).toHaveLength(1);
    // Opened on the phone: the pane is seen (done → idle), and the notification goes.
    expect((await fetch(`${bridge.url}/api/panes/${encodeURIComponent(id)}/seen`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: '{}' })).status).toBeLessThan(300);
    await service.next((p) => isWithdraw(p, shown.tag));
    expect(service.refused).toEqual([]);
  }, 120_000);
});
