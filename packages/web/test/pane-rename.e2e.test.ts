import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { startBridge } from '@collie/bridge';
import { artifactPath, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gitDir, openPaneMenu, untilPane } from './e2e-setup';
import { openPhone, webWork } from './phone-rig';

const shot = (page: Page, name: string) => page.screenshot({ path: artifactPath(`web/${name}.png`) });

/**
 * Rename from the phone at 390×844 (real tmux, real bridge): the name is the pane's label on the
 * dashboard row and the pane page, kept across a bridge restart, and taken back to the automatic
 * `<repo>#<branch>` label.
 */
describe('renaming a pane from the phone', () => {
  it('shows the name as the row label, keeps it across a restart, and gives the automatic label back', async () => {
    await using work = await webWork('collie-rename-e2e-');
    const { dist } = work;
    await using tmux = await startTmux();
    const repo = await gitDir(work.path, 'shop', 'fix-login');
    const tmuxId = await tmux.newSession('work', { cmd: 'sh', cwd: repo });
    await using state = await tempDir('collie-state-');
    const options = testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist });
    let bridge = await startBridge(options);
    try {
      const id = `${tmux.name}:${tmuxId}`;
      await untilPane(bridge.hub, 'the pane labelled from git', (p) => p.id === id && p.label === 'shop#fix-login');

      await using phone = await openPhone(bridge, state.path, { timeout: 20_000 });
      const { page } = phone;
      await page.goto(`/#/pane/${encodeURIComponent(id)}`);
      await page.locator('.conn-live').waitFor();

      await openPaneMenu(page);
      await page.getByRole('button', { name: 'Rename' }).click();
      expect(await page.getByLabel('Pane name').inputValue()).toBe('shop#fix-login');
      await page.getByLabel('Pane name').fill('login fix #2');
      await shot(page, 'rename-form');
      await page.getByRole('button', { name: 'Save name' }).click();
      // The pane page's title, then the row: the whole name, not split at its `#`.
      await expect.poll(() => page.locator('#pane-title').textContent()).toBe('login fix #2');
      await page.goto('/#/');
      const row = page.locator('.row', { hasText: 'login fix #2' });
      await row.waitFor();
      expect(await row.locator('.row-label').textContent()).toBe('login fix #2');
      expect(await row.getAttribute('aria-label')).toMatch(/^login fix #2, /);
      await shot(page, 'rename-row');
      // Every use of the label reads the model's (walky's `who`, pushes): the name is there.
      expect(bridge.hub.panes.get(id)?.label).toBe('login fix #2');
      // Kept where the bridge keeps its panes' tokens, readable by the user only.
      expect((await stat(join(state.path, 'walky', 'instances.json'))).mode & 0o777).toBe(0o600);

      // A bridge restart on the same port: the name is still the label.
      await bridge.stop();
      bridge = await startBridge({ ...options, port: bridge.port });
      await untilPane(bridge.hub, 'the name after the restart', (p) => p.id === id && p.label === 'login fix #2' && p.named === true);
      await page.reload();
      await page.locator('.row', { hasText: 'login fix #2' }).waitFor();

      // Automatic name: `<repo>#<branch>` comes back.
      await page.goto(`/#/pane/${encodeURIComponent(id)}`);
      await openPaneMenu(page);
      await page.getByRole('button', { name: 'Rename' }).click();
      await page.getByRole('button', { name: 'Automatic name' }).click();
      await expect.poll(() => page.locator('#pane-title').textContent()).toBe('shop#fix-login');
      await untilPane(bridge.hub, 'the automatic label', (p) => p.id === id && p.label === 'shop#fix-login' && p.named === false);
      await page.goto('/#/');
      await page.locator('.row', { hasText: 'shop#fix-login' }).waitFor();
      await shot(page, 'rename-automatic');
    } finally {
      await bridge.stop();
    }
  }, 180_000);
});
