import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startBridge } from '@collie/bridge';
import { DEFAULT_PUSH_PREFS, type PushPayload } from '@collie/protocol';
import { artifactPath, launchChromium, phoneContext, startPushService, startTmux, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildWeb, fakeClaude, pushToServiceWorker, untilPane } from './e2e-setup';

/** The notifications the page's service worker shows now, with their actions. */
const notifications = (page: Page) =>
  page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return (await reg.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, actions: (n as Notification & { actions?: { action: string }[] }).actions?.map((a) => a.action) ?? [] }));
  });

describe('answering from the lock screen', () => {
  it('a permission push carries Allow (whole ask) and Deny; Deny posts the card\'s guarded answer and says so; a changed ask says "This ask changed"', async () => {
    await using work = await tempDir('collie-push-actions-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    const fifo = join(work.path, 'screen.fifo');
    const otherFifo = join(work.path, 'other.fifo');
    await promisify(execFile)('mkfifo', [fifo]);
    await promisify(execFile)('mkfifo', [otherFifo]);
    await using tmux = await startTmux();
    // Any key the bridge presses answers the stand-in's dialog: its screen goes back to the prompt.
    const paneTmux = await tmux.newSession('work', { cmd: [process.execPath, fakeClaude, 'fresh-idle'], env: { COLLIE_FAKE_FIFO: fifo, COLLIE_FAKE_ON_KEY: 'fresh-idle' } });
    const otherTmux = await tmux.newSession('other', { cmd: [process.execPath, fakeClaude, 'fresh-idle'], env: { COLLIE_FAKE_FIFO: otherFifo } });
    await using state = await tempDir('collie-state-');
    await using service = await startPushService();
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist, push: { ca: service.ca, loopbackEndpoints: true, delayMs: 300 } }));
    await untilPane(bridge.hub, 'the idle pane', (p) => p.tmuxId === paneTmux && p.state === 'idle', 30_000);
    await untilPane(bridge.hub, 'the other pane', (p) => p.tmuxId === otherTmux && p.state === 'idle', 30_000);
    const device = await testDevice(state.path);
    const post = (path: string, body: unknown) => fetch(`${bridge.url}${path}`, { method: 'POST', headers: { ...device.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/api/push/subscribe', { subscription: service.subscribe() })).status).toBe(200);

    // Off by default: the push carries no answer (another pane, so the once-only rule lets the next push out).
    await writeFile(otherFifo, 'permission-edit\n');
    const plain = await service.next((p) => (p.json as PushPayload).type === 'push.show', 30_000);
    expect((plain.json as { answer?: unknown }).answer).toBeUndefined();
    await writeFile(otherFifo, 'fresh-idle\n');
    await service.next((p) => (p.json as PushPayload).type === 'push.withdraw', 30_000);

    // Turned on: the next permission push carries the pane, the card's signature and its options.
    expect((await post('/api/push/prefs', { prefs: { ...DEFAULT_PUSH_PREFS, lockScreen: true } })).status).toBe(200);
    await writeFile(fifo, 'permission-edit\n');
    const blocked = await untilPane(bridge.hub, 'the permission', (p) => p.tmuxId === paneTmux && p.state === 'blocked' && p.card?.kind === 'permission', 30_000);
    const at = service.received.length;
    const pushed = await service.next((p) => service.received.indexOf(p) >= at && (p.json as PushPayload).type === 'push.show' && 'answer' in (p.json as object), 30_000);
    const show = pushed.json as Extract<PushPayload, { type: 'push.show' }>;
    expect(show.answer).toMatchObject({ pane: blocked.id, signature: blocked.card!.signature });
    const no = blocked.card!.options.find((o) => /^No\b/.test(o.label));
    expect(show.answer!.deny).toBe(no!.n);

    await using browser = await launchChromium();
    await using context = await phoneContext(browser, { baseURL: bridge.url });
    await context.addCookies([device.cookie(bridge.url)]);
    await context.grantPermissions(['notifications'], { origin: bridge.url });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto('/#/settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready);
    // The setting as the page shows it (on, as saved above).
    await expect.poll(() => page.getByLabel('Answer permissions from the notification').isChecked(), { timeout: 20_000 }).toBe(true);
    await page.screenshot({ path: artifactPath('web/push-settings-lock-screen.png'), fullPage: true });

    const deliver = await pushToServiceWorker(context, page, bridge.url);
    // What the bridge pushed, delivered as the push service would.
    await deliver(show);
    // Two actions (Chrome's Notification.maxActions): with Allow, Open is the tap on the notification.
    const expectedActions = show.answer!.allow === null ? ['deny', 'open'] : ['allow', 'deny'];
    await expect.poll(() => notifications(page), { timeout: 20_000 }).toEqual([{ title: show.title, body: show.body, tag: show.tag, actions: expectedActions }]);

    const [sw] = context.serviceWorkers();
    if (!sw) throw new Error('no service worker');
    // No protocol command taps a notification's action: the worker gets the event the tap fires.
    const tap = (tag: string, action: string) =>
      sw.evaluate(
        async ([t, a]) => {
          const g = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean; NotificationEvent: new (type: string, init: { notification: Notification; action: string }) => Event };
          const [n] = await g.registration.getNotifications({ tag: t });
          if (!n) throw new Error('no notification');
          g.dispatchEvent(new g.NotificationEvent('notificationclick', { notification: n, action: a }));
        },
        [tag, action] as const,
      );
    await tap(show.tag, 'deny');
    // The bridge pressed the card's No (the same guarded route as the card), the dialog closed,
    // and the notification says what happened.
    await untilPane(bridge.hub, 'the answered pane', (p) => p.tmuxId === paneTmux && p.state !== 'blocked', 30_000);
    await expect.poll(() => notifications(page), { timeout: 30_000 }).toEqual([{ title: 'Denied', body: 'Answered from the lock screen.', tag: show.tag, actions: [] }]);
    const receipts = (bridge.hub.sends.get(blocked.id) ?? []).filter((r) => r.kind === 'answer' && r.requestId.startsWith('lock-'));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ state: 'typed', final: true });

    // The same push tapped once the pane asks something else: nothing is pressed.
    await writeFile(fifo, 'plan-approval\n');
    await untilPane(bridge.hub, 'another ask', (p) => p.tmuxId === paneTmux && p.state === 'blocked' && p.card !== null && p.card.signature !== show.answer!.signature, 30_000);
    await deliver(show);
    await expect.poll(async () => (await notifications(page)).map((n) => n.title), { timeout: 20_000 }).toEqual([show.title]);
    await tap(show.tag, 'deny');
    await expect.poll(() => notifications(page), { timeout: 30_000 }).toEqual([{ title: 'This ask changed', body: 'Tap to open it and read it again.', tag: show.tag, actions: [] }]);
    expect((await untilPane(bridge.hub, 'the pane', (p) => p.tmuxId === paneTmux)).state).toBe('blocked');
  }, 240_000);
});
