import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { artifactPath, launchChromium, phoneContext, repoRoot, startTmux, tempDir, testDevice } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type BridgeProcess, startBridgeProcess } from './bridge-process';
import { fakeClaude, gitDir } from './e2e-setup';

const run = promisify(execFile);
const shot = (page: Page, name: string) => page.screenshot({ path: artifactPath(`web/${name}.png`) });

/** What a person would read as "my agents died": the words the old app showed after a stop. */
async function expectNoDeadAgents(dashboard: Page, pane: Page, rows: number): Promise<void> {
  expect(await dashboard.locator('.row').count()).toBe(rows);
  expect(await dashboard.getByText('No agent panes yet').count()).toBe(0);
  expect(await pane.getByText('This pane is gone').count()).toBe(0);
  expect(await pane.locator('.pane-label').count()).toBe(1);
}

/** Both pages live again; resolves with the ms from the bridge's ready line to the later of the two. */
async function liveAgain(pages: Page[], bridge: BridgeProcess): Promise<number> {
  await Promise.all(pages.map((p) => p.locator('.conn-live').waitFor({ timeout: 20_000 })));
  await Promise.all(pages.map((p) => p.locator('.offline').waitFor({ state: 'detached' })));
  return Date.now() - bridge.readyAt;
}

/**
 * Issue 17 (1): a stopped bridge never looks like dead agents. The built bridge runs as its
 * own process over a private tmux server; the test stops it on purpose, kills it, starts it
 * again on the same port, and takes the browser offline, with the dashboard and a pane open.
 */
describe('the phone when the bridge goes away', () => {
  it('keeps the last view under "Offline since", says when the bridge stopped, and is live within 2 s of its return', async () => {
    // The bridge process serves packages/web/dist: build every piece from the current sources.
    await run(process.execPath, [join(repoRoot, 'scripts/build.mjs')], { cwd: repoRoot });
    await using work = await tempDir('collie-away-e2e-');
    const repo = await gitDir(work.path, 'shop-api', 'fix-login');
    await using tmux = await startTmux();
    const blocked = await tmux.newSession('api', { cmd: [fakeClaude, 'permission-edit'], cwd: repo });
    await tmux.newWindow('api', { cmd: [fakeClaude, 'working'], cwd: repo });
    await using state = await tempDir('collie-state-');

    let bridge = await startBridgeProcess(tmux.tmpDir, state.path);
    const port = bridge.port;
    await using browser = await launchChromium();
    await using context = await phoneContext(browser, { baseURL: bridge.url });
    await context.addCookies([(await testDevice(state.path)).cookie(bridge.url)]);
    const dashboard = await context.newPage();
    const pane = await context.newPage();
    for (const page of [dashboard, pane]) page.setDefaultTimeout(15_000);
    await dashboard.goto('/');
    await dashboard.locator('.row').nth(1).waitFor();
    await pane.goto(`/#/pane/${encodeURIComponent(`${tmux.name}:${blocked}`)}`);
    await pane.locator('.card').waitFor();
    await Promise.all([dashboard, pane].map((p) => p.locator('.conn-live').waitFor()));

    try {
      // SIGTERM (collie stop, a restart, Ctrl-C): the bridge says it is stopping.
      await bridge.kill('SIGTERM');
      await dashboard.getByText(/^The bridge stopped at \d/).waitFor();
      await pane.getByText(/^The bridge stopped at \d/).waitFor();
      await expectNoDeadAgents(dashboard, pane, 2);
      expect(await dashboard.locator('main.stale').count()).toBe(1);
      await shot(dashboard, 'away-stopped-dashboard');
      await shot(pane, 'away-stopped-pane');
      // Timers are frozen at the moment it went down: the bridge no longer vouches for them.
      const frozen = await dashboard.locator('.elapsed').allTextContents();
      await dashboard.waitForTimeout(2_100);
      expect(await dashboard.locator('.elapsed').allTextContents()).toEqual(frozen);

      // Started again on the same port: both pages are live within 2 s, the banner gone.
      bridge = await startBridgeProcess(tmux.tmpDir, state.path, port);
      const afterStop = await liveAgain([dashboard, pane], bridge);
      expect(afterStop).toBeLessThan(2_000);
      await expectNoDeadAgents(dashboard, pane, 2);

      // SIGKILL: no word from the bridge, so the banner says only since when.
      await bridge.kill('SIGKILL');
      await dashboard.getByText(/^Offline since \d/).waitFor();
      await pane.getByText(/^Offline since \d/).waitFor();
      expect(await pane.getByRole('button', { name: 'Retry now' }).count()).toBe(1);
      await expectNoDeadAgents(dashboard, pane, 2);
      await shot(pane, 'away-killed-pane');
      await shot(dashboard, 'away-killed-dashboard');
      // Pages past the dashboard and a pane are chunks of their own, named as prefetch links:
      // fetched when the app loaded, they open with the bridge gone too.
      await dashboard.goto('/#/settings');
      await dashboard.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      await dashboard.goto('/#/');
      await dashboard.locator('.row').nth(1).waitFor();

      bridge = await startBridgeProcess(tmux.tmpDir, state.path, port);
      const afterKill = await liveAgain([dashboard, pane], bridge);
      expect(afterKill).toBeLessThan(2_000);
      await expectNoDeadAgents(dashboard, pane, 2);
      expect(await dashboard.locator('main.stale').count()).toBe(0);

      // The browser loses its network: said at once, from the offline event.
      await context.setOffline(true);
      await dashboard.getByText('This phone has no network', { exact: false }).waitFor();
      await expectNoDeadAgents(dashboard, pane, 2);
      await shot(dashboard, 'away-offline-dashboard');
      await context.setOffline(false);
      await liveAgain([dashboard, pane], bridge);
      await expectNoDeadAgents(dashboard, pane, 2);
      console.log(`bridge-away: live again ${afterStop} ms after a SIGTERM restart, ${afterKill} ms after a SIGKILL restart`);
    } finally {
      await bridge.kill('SIGKILL');
    }
  }, 180_000);
});
