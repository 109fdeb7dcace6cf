import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startBridge } from '@collie/bridge';
import { artifactPath, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startDropProxy } from './drop-proxy';
import { fakeClaude, gitDir, untilPane } from './e2e-setup';
import { openPhone, webWork } from './phone-rig';

const run = promisify(execFile);

/** Rows of the dashboard as a person reads them: label and state words, top to bottom. */
async function rows(page: Page): Promise<string[]> {
  return page.locator('.row').evaluateAll((els) =>
    els.map((el) => `${el.querySelector('.row-label')?.textContent} | ${el.querySelector('.pill')?.textContent}`),
  );
}

const row = (page: Page, label: string) => page.locator('.row', { hasText: label });

describe('the phone app on a real bridge and a real tmux server', () => {
  it('ranks panes by who needs you, follows them live, mirrors a screen, and recovers from drops and restarts', async () => {
    await using work = await webWork('collie-web-e2e-');
    const { dist } = work;
    const apiRepo = await gitDir(work.path, 'shop-api', 'fix-login');
    const webRepo = await gitDir(work.path, 'shop-web', 'main');
    const fifo = join(work.path, 'turn.fifo');
    await run('mkfifo', [fifo]);

    await using tmux = await startTmux();
    const blockedPane = await tmux.newSession('api', { cmd: [fakeClaude, 'permission-edit'], cwd: apiRepo });
    const turnPane = await tmux.newWindow('api', { cmd: [fakeClaude, 'working'], cwd: webRepo, env: { COLLIE_FAKE_FIFO: fifo } });
    const shellPane = await tmux.newSession('notes', { cmd: 'sh', cwd: work.path, width: 120, height: 30 });
    const id = (tmuxId: string) => `${tmux.name}:${tmuxId}`;

    await using state = await tempDir('collie-state-');
    // The page talks to the bridge through a relay the test can cut, as a phone's network drops.
    await using proxy = await startDropProxy();
    const options = testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist, allowedHosts: [`127.0.0.1:${proxy.port}`] });
    await using bridge = await startBridge(options);
    proxy.target(bridge.port);
    await untilPane(bridge.hub, 'the blocked pane', (p) => p.id === id(blockedPane) && p.state === 'blocked');
    await untilPane(bridge.hub, 'the working pane', (p) => p.id === id(turnPane) && p.state === 'working');
    await untilPane(bridge.hub, 'the shell pane', (p) => p.id === id(shellPane));

    await using phone = await openPhone(proxy, state.path, { timeout: 10_000, scheme: 'dark', console: true });
    const { page, problems } = phone;

    // The dashboard: blocked first with its dialog, then the working agent, then the shell.
    await page.goto('/');
    await page.locator('.conn-live').waitFor();
    await page.locator('.row').nth(2).waitFor();
    const first = await rows(page);
    expect(first.slice(0, 2)).toEqual(['shop-api#fix-login | Blocked', 'shop-web#main | Working']);
    expect(first).toHaveLength(3);
    await expect(row(page, 'shop-api#fix-login').locator('.flag-dialog').textContent()).resolves.toBe('Permission');
    await expect(row(page, 'shop-api#fix-login').locator('.row-meta').textContent()).resolves.toMatch(/^Claude Code · testbox · /);
    expect(await page.locator('.space-name').allTextContents()).toEqual(['api', 'notes']);
    await expect(page.locator('.conn').textContent()).resolves.toBe('Live');
    await page.screenshot({ path: artifactPath('web/dashboard.png') });

    // The turn ends: the row turns Done without a reload and moves up among those that need you.
    await writeFile(fifo, 'done\n');
    await row(page, 'shop-web#main').locator('.pill-done').waitFor();
    expect((await rows(page)).slice(0, 2)).toEqual(['shop-api#fix-login | Blocked', 'shop-web#main | Done']);

    // "Show only panes that need you" hides the shell, and is remembered across a reload.
    await page.getByText('Show only panes that need you').click();
    await page.locator('.row').nth(2).waitFor({ state: 'detached' });
    expect(await rows(page)).toEqual(['shop-api#fix-login | Blocked', 'shop-web#main | Done']);
    await page.screenshot({ path: artifactPath('web/dashboard-needs-you.png') });
    await page.reload();
    await page.locator('.row').nth(1).waitFor();
    expect(await page.getByRole('switch').isChecked()).toBe(true);
    expect(await rows(page)).toHaveLength(2);
    await page.getByText('Show only panes that need you').click();
    await page.locator('.row').nth(2).waitFor();

    // Opening the finished pane shows its screen and marks it seen: Done becomes Idle.
    await row(page, 'shop-web#main').click();
    await page.locator('.pane-label', { hasText: 'shop-web#main' }).waitFor();
    await page.locator('.term', { hasText: 'cat hello.txt to verify' }).waitFor();
    await page.locator('.pane-head .pill-idle').waitFor();
    await untilPane(bridge.hub, 'the pane marked seen', (p) => p.id === id(turnPane) && p.state === 'idle');
    expect(page.url()).toContain(`#/pane/${encodeURIComponent(id(turnPane))}`);
    await page.screenshot({ path: artifactPath('web/pane-claude.png') });

    // Pane text is text: markup printed in a pane never becomes elements.
    await page.getByRole('link', { name: 'Panes' }).click();
    await tmux.typeText(shellPane, 'echo "<b>not bold</b><img src=x>"');
    await tmux.sendKeys(shellPane, 'Enter');
    await page.locator('.row').nth(2).click();
    await page.locator('.term', { hasText: '<b>not bold</b><img src=x>' }).first().waitFor();
    expect(await page.locator('.term b, .term img').count()).toBe(0);
    await page.screenshot({ path: artifactPath('web/pane-shell.png') });

    // The page registered its service worker and links a manifest the bridge serves.
    const worker = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? '');
    expect(worker).toBe(`${proxy.url}/sw.js`);
    // It keeps the pages that load on first use (the page names them), for a time with no bridge.
    const kept = await page.evaluate(async () => (await (await caches.open('collie-shell-v1')).keys()).map((k) => new URL(k.url).pathname));
    expect(kept.filter((p) => /^\/assets\/(settings-page|crew-page|durable-chat)-[\w-]+\.js$/u.test(p))).toHaveLength(3);
    const manifest = await page.evaluate(async () => (await fetch('/manifest.webmanifest')).json());
    expect(manifest).toMatchObject({ name: 'Collie', start_url: '/', display: 'standalone' });
    expect(problems).toEqual([]);

    // The network drops: the page says so, and catches up on what changed once it is back.
    await page.getByRole('link', { name: 'Panes' }).click();
    await page.locator('.row').nth(2).waitFor();
    proxy.cut();
    await page.locator('.conn-reconnecting').waitFor();
    await page.screenshot({ path: artifactPath('web/dashboard-reconnecting.png') });
    await writeFile(fifo, 'working\n');
    await untilPane(bridge.hub, 'the next turn', (p) => p.id === id(turnPane) && p.state === 'working');
    proxy.resume();
    await page.locator('.conn-live').waitFor({ timeout: 20_000 });
    await row(page, 'shop-web#main').locator('.pill-working').waitFor();

    // The bridge restarts (a new run, new sequence numbers): the page takes its fresh snapshot.
    proxy.cut();
    await page.locator('.conn-reconnecting').waitFor();
    await bridge.stop();
    await using again = await startBridge(options);
    // Disposed before `again`: the bridge's stop waits on open event sockets, so cut the page off first.
    await using _disconnect = { [Symbol.asyncDispose]: async () => proxy.cut() };
    await untilPane(again.hub, 'the blocked pane after the restart', (p) => p.id === id(blockedPane) && p.state === 'blocked');
    proxy.target(again.port);
    proxy.resume();
    await page.locator('.conn-live').waitFor({ timeout: 20_000 });
    await row(page, 'shop-api#fix-login').locator('.pill-blocked').waitFor();
    expect(await rows(page)).toHaveLength(3);
    // Connection failures while the network was down are expected; a blocked script or style is not.
    expect(problems.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);

    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: artifactPath('web/dashboard-light.png') });
  }, 120_000);
});
