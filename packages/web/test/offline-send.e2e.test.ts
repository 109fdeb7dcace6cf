import { startBridge } from '@collie/bridge';
import { artifactPath, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { untilPane } from './e2e-setup';
import { openPhone, webWork } from './phone-rig';

const REFUSED = 'Not sent: no connection to the bridge; your text is kept';

/**
 * Issue 27 (4): a send tapped while the bridge is away is refused at once, in words, with the text
 * kept in the composer; nothing is claimed about it later (no "Not sure it arrived", before or
 * after the bridge is back), nothing reaches the pane, and the kept text sends once it is back.
 * A real bridge, stopped and started again on the same port, over a private tmux server.
 */
describe('a send while the bridge is away', () => {
  it('is refused at once in words, keeps the text, and claims nothing after the bridge is back', async () => {
    await using work = await webWork('collie-offline-send-');
    const { dist } = work;
    await using tmux = await startTmux();
    const tmuxPane = await tmux.newSession('away', { cmd: 'cat', width: 100, height: 30 });
    const id = `${tmux.name}:${tmuxPane}`;
    await using state = await tempDir('collie-state-');
    let bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    const port = bridge.port;
    try {
      await untilPane(bridge.hub, 'the pane', (p) => p.id === id, 30_000);
      await using phone = await openPhone(bridge, state.path, { timeout: 20_000 });
      const { page } = phone;
      await page.goto(`/#/pane/${encodeURIComponent(id)}`);
      await page.locator('.conn-live').waitFor();

      await bridge.stop();
      await page.locator('.offline').waitFor();
      const box = page.getByRole('textbox', { name: 'Text to send to the pane' });
      await box.fill('kept while away');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      // At once: the refusal is in the page before any call could have timed out.
      await page.getByText(REFUSED).waitFor({ timeout: 1_000 });
      expect(await box.inputValue()).toBe('kept while away');
      expect(await page.getByText('Not sure it arrived', { exact: false }).count()).toBe(0);
      await page.screenshot({ path: artifactPath('web/offline-send-refused.png') });

      bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist, port }));
      await untilPane(bridge.hub, 'the pane again', (p) => p.id === id, 30_000);
      await page.locator('.conn-live').waitFor();
      await page.locator('.offline').waitFor({ state: 'detached' });
      expect(await page.getByText('Not sure it arrived', { exact: false }).count()).toBe(0);
      expect(bridge.hub.sends.get(id) ?? []).toEqual([]);
      expect(await tmux.capture(tmuxPane)).not.toContain('kept while away');
      expect(await box.inputValue()).toBe('kept while away');

      // The kept text goes once the bridge is back.
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.locator('.send', { hasText: 'kept while away' }).locator('.send-outcome', { hasText: 'typed into the pane' }).waitFor();
      expect(await page.getByText(REFUSED).count()).toBe(0);
      await page.screenshot({ path: artifactPath('web/offline-send-after.png') });
    } finally {
      await bridge.stop();
    }
  }, 120_000);
});
