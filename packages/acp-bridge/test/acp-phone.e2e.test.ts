import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startBridge } from '@collie/bridge';
import { acpScriptAgent, artifactPath, launchChromium, phoneContext, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import { durableRegistry } from '../../bridge/src/commands/durable-registry';
import { post } from '../../bridge/test/durable-kit';
import { buildWeb } from '../../web/test/e2e-setup';
import { runAcp } from '../src/run';

/** An ACP conversation on the phone (390×844): the plan's progress, a diff as code, the permission card. */
describe('an ACP agent on the phone', () => {
  it('shows the plan, the diff and the permission card with the agent’s options', async () => {
    await using work = await tempDir('collie-acp-phone-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    const config = join(work.path, 'config');
    const state = join(work.path, 'state');
    await using bridge = await startBridge(testBridgeOptions(join(work.path, 'no-tmux'), state, { webDir: dist, configDir: config }));
    const device = await testDevice(state);
    const running = await runAcp({ name: 'scripted', serve: false, agent: acpScriptAgent(work.path) }, durableRegistry({ ...process.env, COLLIE_CONFIG_DIR: config, COLLIE_STATE_DIR: state }));
    try {
      const tb = Object.assign(bridge, { device });
      let started: { conversationId: string | null } = { conversationId: null };
      for (let i = 0; i < 100 && !started.conversationId; i++) {
        started = await post(tb, '/starter', { agent: 'scripted', starterId: 'new', request_id: 'st-1' }).catch(() => ({ conversationId: null }));
        if (!started.conversationId) await new Promise((r) => setTimeout(r, 200));
      }
      await post(tb, '/message', { agent: 'scripted', conversationId: started.conversationId!, text: 'edit', steer: false, request_id: 'say-1' });
      await using browser = await launchChromium();
      await using context = await phoneContext(browser, { baseURL: bridge.url });
      await context.addCookies([device.cookie(bridge.url)]);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto('/');
      await page.locator('.durable-row', { hasText: 'scripted' }).click();
      await page.locator('.durable-conv', { hasText: 'edit' }).first().click();
      const card = page.locator('.durable-card');
      await card.waitFor({ timeout: 30_000 });
      expect(await card.locator('.option > span:first-child').allTextContents()).toEqual(['Allow', 'Always allow', 'Deny', 'Deny']);
      expect(await card.locator('.option-quiet').first().textContent()).toBe('Allow this edit');
      expect(await page.locator('.chat-code figcaption').first().textContent()).toBe('diff');
      await page.getByText(/Step 2 of 3/u).first().waitFor({ timeout: 30_000 });
      await page.screenshot({ path: artifactPath('web/acp-conversation.png'), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await running.stop();
    }
  });
});
