import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startBridge } from '@collie/bridge';
import { acpScriptAgent, artifactPath, launchChromium, phoneContext, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import { durableRegistry } from '../../bridge/src/commands/durable-registry';
import { agentIn, post } from '../../bridge/test/durable-kit';
import { axeBoth, buildWeb } from '../../web/test/e2e-setup';
import { runAcp } from '../src/run';

/**
 * An ACP conversation on the phone (390×844): the plan's progress, a diff as code, the permission
 * card with the agent's four option kinds answered by a tap, and an elicitation's form card.
 */
describe('an ACP agent on the phone', () => {
  it('shows the plan, the diff and the permission card; a tap answers the agent; an elicitation is a form', async () => {
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
      await agentIn(bridge.hub, 'scripted', 'ready', 30_000);
      const started = await post(tb, '/starter', { agent: 'scripted', starterId: 'new', request_id: 'st-1' });
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
      expect(await card.locator('.option-quiet').allTextContents()).toEqual(['Allow this edit', 'Allow edits to notes.md', 'Reject', 'Never']);
      await expect.poll(() => page.locator('.durable-line2').textContent()).toBe('Step 2 of 3: Write the change');
      expect(await page.locator('.chat-tool .tool-input').first().textContent()).toBe('Edit notes.md');
      expect(await page.locator('.chat-code figcaption').first().textContent()).toBe('diff');
      expect(await page.locator('.chat-code code').first().textContent()).toBe(`--- ${work.path}/notes.md\n+++ ${work.path}/notes.md\n one\n-two\n+2`);
      // Every button a thumb meets is 44 px tall at least; nothing wider than the screen.
      for (const b of await page.locator('.durable-card .option, .durable-belt .belt-button').all()) expect((await b.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await axeBoth(page, '.durable-chat');
      await axeBoth(page, '.durable-header');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: artifactPath('web/acp-card.png') });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: artifactPath('web/acp-card-dark.png') });
      // The whole card, the dock that floats over it hidden for the shot.
      await wholeShot(page, card, 'web/acp-card-whole-dark.png');
      await page.emulateMedia({ colorScheme: 'light' });

      // The tap on Allow: the agent's own option ("yes") is selected and the edit runs.
      await card.locator('.option', { hasText: 'Allow this edit' }).click();
      await page.locator('.chat-tool.tool-done').first().waitFor({ timeout: 30_000 });
      await page.getByText('Edited (yes).').waitFor({ timeout: 30_000 });
      // The turn over, the header's second line is the folder again (steps show while it works).
      await expect.poll(() => page.locator('.durable-line2').textContent()).toBe(work.path);
      expect(await page.locator('.chat-tool .tool-output').first().textContent()).toBe('edited');
      await page.locator('.chat-code').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: artifactPath('web/acp-tool-diff.png') });

      // An elicitation is a form card; what the phone fills in reaches the agent typed.
      await page.locator('.durable-dock textarea').fill('elicit');
      await page.locator('.durable-dock').getByRole('button', { name: 'Send' }).click();
      const form = page.locator('.durable-card', { hasText: 'Who is it for?' });
      await form.waitFor({ timeout: 30_000 });
      await form.getByLabel('Name').fill('Ada');
      await axeBoth(page, '.durable-chat');
      await page.emulateMedia({ colorScheme: 'light' });
      await wholeShot(page, form, 'web/acp-form.png');
      await form.getByRole('button', { name: 'Send' }).click();
      // What was left empty is left out (no "" for a choice of S, M or L; no count that is not a number).
      await page.getByText('Elicited: {"action":"accept","content":{"name":"Ada","urgent":false}}').waitFor({ timeout: 30_000 });

      // A hostile agent's markup is text on the page: no element made of it, no script run.
      const dialogs: string[] = [];
      page.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss()));
      await post(tb, '/message', { agent: 'scripted', conversationId: started.conversationId!, text: 'fuzz', steer: false, request_id: 'say-fuzz' });
      const fuzz = page.locator('.durable-card', { hasText: 'Run qqq' });
      await fuzz.waitFor({ timeout: 30_000 });
      expect(await fuzz.locator('.option').count()).toBe(6);
      await page.getByText('<script>alert(1)</script><img src=x onerror=alert(2)>', { exact: false }).first().waitFor({ timeout: 30_000 });
      expect(await page.locator('.durable-chat img, .durable-chat script').count()).toBe(0);
      await page.screenshot({ path: artifactPath('web/acp-fuzz.png') });
      // Nothing wider than the screen, not even an option name of 400 letters in one word. The
      // belt is one row that scrolls sideways: its buttons may run past the edge inside it, the
      // belt itself may not.
      const wide = await page.evaluate<string[]>("[...document.querySelectorAll('body *')].filter((e) => !e.closest('.durable-belt > *') && e.getBoundingClientRect().right > 391).map((e) => e.tagName + '.' + e.className)");
      expect(wide).toEqual([]);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await fuzz.scrollIntoViewIfNeeded();
      await page.screenshot({ path: artifactPath('web/acp-fuzz-card.png') });
      await page.screenshot({ path: artifactPath('web/acp-fuzz.png') });
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await running.stop();
    }
  });
});

/** A shot of one whole card: the dock that floats over the page's foot is hidden for it (through the CSSOM: the page's CSP allows no inline style). */
async function wholeShot(page: Page, el: Locator, path: string): Promise<void> {
  await page.evaluate("document.querySelector('.durable-dock').style.display = 'none'");
  await el.screenshot({ path: artifactPath(path) });
  await page.evaluate("document.querySelector('.durable-dock').style.display = ''");
}
