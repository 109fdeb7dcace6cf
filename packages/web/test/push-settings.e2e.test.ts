import { join } from 'node:path';
import { startBridge } from '@collie/bridge';
import { artifactPath, launchChromium, phoneContext, startPushService, startTmux, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildWeb, fakeClaude, pushToServiceWorker, untilPane } from './e2e-setup';

const shot = (page: Page, name: string) => page.screenshot({ path: artifactPath(`web/${name}.png`) });

/** The notifications the page's service worker shows now. */
const notifications = (page: Page) =>
  page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return (await reg.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag }));
  });

describe('push on the phone', () => {
  it('Settings asks for permission only after a tap; the service worker shows a push, closes it when withdrawn, and a tap opens the pane', async () => {
    await using work = await tempDir('collie-push-e2e-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    await using tmux = await startTmux();
    const paneId = await tmux.newSession('work', { cmd: [process.execPath, fakeClaude, 'fresh-idle'] });
    await using state = await tempDir('collie-state-');
    await using service = await startPushService();
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist, push: { ca: service.ca, loopbackEndpoints: true } }));
    const pane = await untilPane(bridge.hub, 'the pane', (p) => p.tmuxId === paneId, 30_000);
    await using browser = await launchChromium();
    await using context = await phoneContext(browser, { baseURL: bridge.url });
    await context.addCookies([(await testDevice(state.path)).cookie(bridge.url)]);
    await context.grantPermissions(['notifications'], { origin: bridge.url });
    // Count permission prompts: the page must ask only when the person taps.
    await context.addInitScript(() => {
      const w = window as Window & { asked?: number };
      w.asked = 0;
      if (!('Notification' in window)) return;
      const ask = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = (...a: Parameters<typeof Notification.requestPermission>) => ((w.asked = (w.asked ?? 0) + 1), ask(...a));
    });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto('/#/settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    const turnOn = page.getByRole('button', { name: 'Turn on push' });
    await turnOn.waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready);
    expect(await page.evaluate(() => (window as Window & { asked?: number }).asked)).toBe(0);
    await shot(page, 'push-settings-off');

    // The tap asks. Headless Chromium has no push service to subscribe to, so it says why in words.
    await turnOn.click();
    await page.getByRole('alert').waitFor();
    expect(await page.evaluate(() => (window as Window & { asked?: number }).asked)).toBe(1);
    expect(await page.getByRole('alert').textContent()).toMatch(/^The browser could not subscribe: /);
    await shot(page, 'push-settings-refused');

    // A subscription this device holds (the stand-in's): the page says push is on and offers a test.
    const res = await page.evaluate(
      async (subscription) => (await fetch('/api/push/subscribe', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ subscription }) })).status,
      service.subscribe(),
    );
    expect(res).toBe(200);
    await page.reload();
    await page.getByText('Push is on for this device.').waitFor();
    await page.getByRole('button', { name: 'Send a test push' }).click();
    await page.getByText('Test push sent.').waitFor();
    await service.next((p) => (p.json as { kind?: string }).kind === 'test');
    // The boxes show what the bridge saved: each turns once its answer is back.
    await page.getByLabel('A durable agent asks').click();
    await expect.poll(() => page.getByLabel('A durable agent asks').isChecked()).toBe(false);
    expect(await page.getByLabel('Messages to you (not pushed yet)').isDisabled()).toBe(true);
    await page.getByLabel('A turn finished').click();
    await expect.poll(() => page.getByLabel('A turn finished').isChecked()).toBe(true);
    // The usage pushes: the limit and Ready again on, the context push off by default.
    expect(await page.getByLabel('A pane reached its usage limit').isChecked()).toBe(true);
    expect(await page.getByLabel('Ready again, when a send waits for the reset').isChecked()).toBe(true);
    expect(await page.getByLabel('A pane’s context passed 90 %').isChecked()).toBe(false);
    await page.getByLabel('A pane’s context passed 90 %').click();
    await expect.poll(() => page.getByLabel('A pane’s context passed 90 %').isChecked()).toBe(true);
    await page.getByLabel('No push between').click();
    await expect.poll(() => page.getByLabel('No push between').isChecked()).toBe(true);
    await shot(page, 'push-settings-on');
    const saved = await (await fetch(`${bridge.url}/api/push`, { headers: (await testDevice(state.path, 'check')).headers })).json();
    expect(saved).toMatchObject({ prefs: { kinds: { blocked: true, durable: false, finished: true, limit: true, ready: true, context: true }, quiet: { from: '22:00', to: '07:00' } } });

    // A push delivered to the service worker through the DevTools protocol shows as a notification.
    const deliver = await pushToServiceWorker(context, page, bridge.url);
    const tag = 'ask-e2e';
    const show = { type: 'push.show', v: 1, kind: 'blocked', tag, title: 'Permission needed in collie#main', body: 'Bash: rm -rf ./build\nDo you want to proceed?', url: `#/pane/${encodeURIComponent(pane.id)}`, at: Date.now() };
    await deliver(show);
    await expect.poll(() => notifications(page), { timeout: 20_000 }).toEqual([{ title: show.title, body: show.body, tag }]);

    // A tap on it opens that pane.
    const [sw] = context.serviceWorkers();
    if (!sw) throw new Error('no service worker');
    await page.goto('/#/settings');
    // No protocol command clicks a notification: the worker gets the event a click would fire.
    await sw.evaluate(async (t) => {
      const g = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean; NotificationEvent: new (type: string, init: { notification: Notification }) => Event };
      const [n] = await g.registration.getNotifications({ tag: t });
      if (n) g.dispatchEvent(new g.NotificationEvent('notificationclick', { notification: n }));
    }, tag);
    await expect.poll(() => new URL(page.url()).hash, { timeout: 20_000 }).toBe(`#/pane/${encodeURIComponent(pane.id)}`);

    // The withdrawal closes it. First the tapped notification is gone: Chromium names a tagged
    // notification by its origin and tag alone, and the tap's close, taken in after a new push of
    // the same tag, removed that push (seen in two full runs; a bare show, close, show again in
    // Chromium lost the second 2 times in 360).
    await expect.poll(() => notifications(page), { timeout: 20_000 }).toEqual([]);
    await deliver(show);
    await expect.poll(() => notifications(page), { timeout: 20_000 }).toHaveLength(1);
    await deliver({ type: 'push.withdraw', v: 1, tag, at: Date.now() });
    await expect.poll(() => notifications(page), { timeout: 20_000 }).toEqual([]);
  }, 180_000);
});
