import { join } from 'node:path';
import { DurableAgent, serve } from '@collie/durable-sdk';
import { startBridge } from '@collie/bridge';
import { conversationKey } from '@collie/protocol';
import { artifactPath, launchChromium, phoneContext, startTmux, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import { mkdir, writeFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { untilDurable } from './durable-rig';
import { buildWeb, untilPane } from './e2e-setup';

/**
 * The Durable agents section on the dashboard at 390×844, beside a real tmux pane's space: it
 * sits below the spaces, moves above them while a durable agent waits on you and back below
 * once answered; "Show only panes that need you" lists only the waiting agents; a row in any
 * state opens the agent's list.
 */
describe('durable agents: the section on the dashboard (390×844)', () => {
  it('below the spaces, above while one waits, back below when answered; Show only lists the waiting ones', async () => {
    await using work = await tempDir('collie-durable-section-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    await using tmux = await startTmux();
    const pane = await tmux.newSession('work', { cmd: 'cat' });
    const waits = new DurableAgent({ runtime: 'waits', onMessage: () => undefined });
    const calm = new DurableAgent({ runtime: 'calm', onMessage: () => undefined });
    const c = waits.open({ id: 'w', title: 'Waiting here' });
    calm.open({ title: 'Nothing to ask' });
    const on = [await serve(waits, { socket: join(work.path, 'waits.sock') }), await serve(calm, { socket: join(work.path, 'calm.sock') })];
    const config = join(work.path, 'config');
    await mkdir(config, { recursive: true });
    await writeFile(join(config, 'sources.json'), JSON.stringify({ agents: [{ name: 'waits', socket: on[0]!.address }, { name: 'calm', socket: on[1]!.address }] }));
    const state = join(work.path, 'state');
    try {
      await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state, { webDir: dist, configDir: config }));
      await untilPane(bridge.hub, 'the pane', (p) => p.id.endsWith(`:${pane}`));
      await untilDurable(bridge.hub, 'both agents', (d) => d.agents.get('waits')?.state === 'ready' && d.agents.get('calm')?.state === 'ready');
      await using browser = await launchChromium();
      await using context = await phoneContext(browser, { baseURL: bridge.url });
      await context.addCookies([(await testDevice(state)).cookie(bridge.url)]);
      const page = await context.newPage();
      await page.goto('/');
      const section = page.locator('.durable-section');
      const space = page.locator('section.space:not(.durable-section)').first();
      await section.waitFor();
      await space.waitFor();
      const order = (p: Page) => p.evaluate(() => [...document.querySelectorAll('section.space')].map((s) => (s.classList.contains('durable-section') ? 'durable' : 'space')));
      await expect.poll(() => order(page)).toEqual(['space', 'durable']);
      await page.screenshot({ path: artifactPath('web/durable-section-below.png') });

      // A question: the section moves above the spaces.
      const ask = c.ask({ kind: 'choice', title: 'Which one?', options: [{ id: 'a', label: 'A' }] });
      await expect.poll(() => order(page)).toEqual(['durable', 'space']);
      // Line 1 is the name and its badge, on one line even beside both counts.
      const line1 = section.locator('.durable-row', { hasText: 'waits' }).locator('.durable-line1');
      await line1.locator('.badge').waitFor();
      const [name, badge] = [await line1.locator('.durable-name').boundingBox(), await line1.locator('.badge').boundingBox()];
      expect(Math.abs(badge!.y + badge!.height / 2 - (name!.y + name!.height / 2))).toBeLessThan(4);
      expect(await line1.textContent()).toBe('waits Experimental');
      await page.screenshot({ path: artifactPath('web/durable-section-above.png') });

      // Show only what needs you: the waiting agent alone.
      await page.getByLabel('Show only panes that need you').check();
      await expect.poll(() => section.locator('.durable-row').count()).toBe(1);
      expect(await section.locator('.durable-row .durable-line1').textContent()).toContain('waits');
      // The panes' note does not say nothing needs you while the agent above does.
      await page.getByText('No pane needs you right now.').waitFor();
      expect(await page.getByText('Nothing needs you right now.').count()).toBe(0);
      await page.screenshot({ path: artifactPath('web/durable-section-only.png') });
      await page.getByLabel('Show only panes that need you').uncheck();

      // Answered: back below.
      await untilDurable(bridge.hub, 'the question', (d) => (d.conversations.get(conversationKey('waits', 'w'))?.questions.length ?? 0) === 1);
      await fetch(`${bridge.url}/api/durable/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(await testDevice(state)).headers },
        body: JSON.stringify({ agent: 'waits', conversationId: 'w', questionId: ask.question.id, version: 0, answer: { kind: 'choice', options: ['a'] }, request_id: 'r-1' }),
      });
      expect((await ask).status).toBe('answered');
      await expect.poll(() => order(page)).toEqual(['space', 'durable']);
      // A row opens its agent's list.
      await section.locator('.durable-row', { hasText: 'calm' }).click();
      await page.locator('.durable-home .durable-title', { hasText: 'calm' }).waitFor();
    } finally {
      for (const l of on) await l.close();
    }
  }, 180_000);
});
