import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startBridge } from '@collie/bridge';
import { artifactPath, launchChromium, phoneContext, repoRoot, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildWeb, untilPane } from './e2e-setup';

const run = promisify(execFile);
const shot = (page: Page, name: string) => page.screenshot({ path: artifactPath(`web/${name}.png`) });

/** The built `collie` for this state dir: it reaches the running bridge through its devices socket. */
async function collie(stateDir: string, ...args: string[]): Promise<string> {
  const env = { ...process.env, COLLIE_STATE_DIR: stateDir, COLLIE_CONFIG_DIR: join(stateDir, 'config') };
  return (await run(process.execPath, [join(repoRoot, 'packages/cli/dist/collie.mjs'), ...args], { env, timeout: 30_000 })).stdout;
}

/**
 * Pairing on a phone-sized Chromium, through the real bridge and the real `collie pair`: the
 * printed link pairs a browser at once; a second browser pairs with the code; removing it from
 * the first cuts it off live.
 */
describe('pairing a phone', () => {
  it('pairs by link and by code, shows the devices, and a removed device is cut off at once', async () => {
    await using work = await tempDir('collie-pair-e2e-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    await using tmux = await startTmux();
    const shell = await tmux.newSession('work', { cmd: 'sh' });
    await using state = await tempDir('collie-state-');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    await untilPane(bridge.hub, 'the shell pane', (p) => p.tmuxId === shell);
    await using browser = await launchChromium();

    // The first browser opens the printed link: paired at once, on the dashboard, the token gone from the address.
    const link = (await collie(state.path, 'pair', '--url')).trim();
    expect(link).toMatch(new RegExp(`^${bridge.url}/#/pair/cp1_[A-Za-z0-9_-]{43}$`));
    await using first = await phoneContext(browser, { baseURL: bridge.url });
    const a = await first.newPage();
    a.setDefaultTimeout(15_000);
    await a.goto(link);
    await a.locator('.conn-live').waitFor();
    await a.locator('.row').first().waitFor();
    expect(a.url()).not.toContain('cp1_');
    expect(await a.evaluate(() => document.cookie)).toBe(''); // HttpOnly: no script sees the token
    await shot(a, 'pair-link-dashboard');

    // The same link again, in another browser: refused, with its reason.
    await using replay = await phoneContext(browser, { baseURL: bridge.url });
    const r = await replay.newPage();
    await r.goto(link);
    await r.getByRole('alert').filter({ hasText: 'already used' }).waitFor();
    expect(r.url()).not.toContain('cp1_');
    await shot(r, 'pair-link-replayed');

    // A second browser with no cookie: the pairing page, nothing of the machine.
    await using second = await phoneContext(browser, { baseURL: bridge.url });
    const b = await second.newPage();
    b.setDefaultTimeout(15_000);
    await b.goto('/');
    await b.getByRole('heading', { name: 'Pair this device' }).waitFor();
    expect(await b.locator('.row').count()).toBe(0);
    expect(await b.textContent('body')).not.toContain('testbox');
    await shot(b, 'pair-page');
    await b.getByLabel('Pairing code').fill('2222-2222');
    await b.getByRole('button', { name: 'Pair' }).click();
    await b.getByRole('alert').filter({ hasText: '4 tries left' }).waitFor();
    await shot(b, 'pair-wrong-code');

    const printed = await collie(state.path, 'pair');
    const code = /type the code ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(printed)?.[1];
    expect(code, printed).toBeDefined();
    await b.getByLabel('Pairing code').fill(code!.toLowerCase());
    await b.getByRole('button', { name: 'Pair' }).click();
    await b.locator('.conn-live').waitFor();
    await b.locator('.row').first().waitFor();
    await shot(b, 'pair-code-dashboard');

    // The first browser's Devices page: both, itself marked; it removes the second.
    await a.getByRole('link', { name: 'Devices' }).click();
    await a.locator('.device').nth(1).waitFor();
    expect(await a.locator('.device').count()).toBe(2);
    const mine = a.locator('.device', { has: a.locator('.device-this') });
    expect(await mine.count()).toBe(1);
    await shot(a, 'devices-page');
    const other = a.locator('.device', { hasNot: a.locator('.device-this') });
    await other.getByRole('button', { name: 'Remove' }).click();
    await shot(a, 'devices-remove-ask');
    await other.getByRole('button', { name: 'Remove' }).click();
    await a.locator('.device').nth(1).waitFor({ state: 'detached' });

    // The second browser did nothing: its live socket was closed, and it is back at pairing.
    await b.getByRole('heading', { name: 'Pair this device' }).waitFor();
    await b.getByText('This device was removed').waitFor();
    expect(await b.locator('.row').count()).toBe(0);
    await shot(b, 'pair-removed-live');
    expect(await collie(state.path, 'devices', 'list')).not.toMatch(/ 2 /);

    // The first browser renames itself; the name shows on the next look.
    await mine.getByRole('button', { name: 'Rename' }).click();
    await a.getByLabel('Device name').fill('My phone');
    await a.getByRole('button', { name: 'Save' }).click();
    await a.locator('.device-name', { hasText: 'My phone' }).waitFor();
    await shot(a, 'devices-renamed');
    expect(await collie(state.path, 'devices', 'list')).toContain('My phone');

    // Issue 27: a pairing link opened in a tab that is already open (only its hash changes) pairs it.
    const again = (await collie(state.path, 'pair', '--url')).trim();
    await b.goto(again);
    await b.locator('.conn-live').waitFor();
    await b.locator('.row').first().waitFor();
    expect(b.url()).not.toContain('cp1_');
    await shot(b, 'pair-link-open-tab');

    // Issue 27: the phone pairs another device: a one-time QR code and code on its Devices page.
    await a.reload();
    await a.locator('.device').first().waitFor();
    await a.getByRole('button', { name: 'Pair another device' }).click();
    const offer = a.getByRole('region', { name: 'Pair another device' });
    await offer.getByRole('img', { name: 'QR code of the pairing link' }).waitFor();
    await expect.poll(() => offer.locator('.pair-note').textContent()).toMatch(/works once, for 10 min more/);
    await shot(a, 'devices-pair-another');
    const shown = (await offer.locator('.pair-offer-value').textContent()) ?? '';
    expect(shown).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    // The QR code is a real one: its modules hold the three finder patterns of a version ≥ 1 code.
    const modules = await offer.locator('svg path').getAttribute('d');
    expect((modules ?? '').split('M').length - 1).toBeGreaterThan(21 * 21 * 0.3);
    await using third = await phoneContext(browser, { baseURL: bridge.url });
    const c = await third.newPage();
    c.setDefaultTimeout(15_000);
    await c.goto('/');
    await c.getByLabel('Pairing code').fill(shown);
    await c.getByRole('button', { name: 'Pair' }).click();
    await c.locator('.conn-live').waitFor();
    await c.locator('.row').first().waitFor();
    await shot(c, 'pair-from-phone-dashboard');
    // Once: the same code again is refused.
    await using fourth = await phoneContext(browser, { baseURL: bridge.url });
    const e = await fourth.newPage();
    await e.goto('/');
    await e.getByLabel('Pairing code').fill(shown);
    await e.getByRole('button', { name: 'Pair' }).click();
    await e.getByRole('alert').filter({ hasText: /already used|not right/ }).waitFor();
  }, 180_000);
});
