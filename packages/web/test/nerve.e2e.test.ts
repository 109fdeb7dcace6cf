/**
 * Nerve's roster views in Chromium against a live Nerve (`collie demo`'s: the real Agent SDK and
 * the real `claude` binary on the scripted Messages API, two background agents and a shell
 * running): agent lines, the agent dock, the Agents panel, an agent tab, queue chips (reorder,
 * edit, cancel), the split Stop, and the desktop keys, at 390×844 and 1280×800.
 */
import { join } from 'node:path';
import type { AgentRecord } from '@collie/protocol';
import { artifactPath, tempDir, type Turn } from '@collie/testkit';
import { startDemoNerve, type DemoNerve } from '../../testkit/src/demo-nerve';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newestUnderDock } from './chat-foot';
import { durableRig, untilDurable } from './durable-rig';
import { axeBoth } from './e2e-setup';

const say = (text: string, durationMs = 0): Turn => ({ blocks: [{ type: 'text', text }], durationMs });

/** Resolves once the demo session's roster passes `check`. */
function untilRoster(demo: DemoNerve, what: string, check: (agents: AgentRecord[], running: boolean) => boolean, ms = 90_000): Promise<void> {
  const s = demo.nerve.gateway.sessions.get(demo.sessionId)!;
  return new Promise((resolve, reject) => {
    if (check(s.roster.list(), s.isRunning)) return resolve();
    const t = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${what}: ${JSON.stringify(s.roster.list().map((r) => [r.name, r.status]))} running=${s.isRunning}`));
    }, ms);
    const off = demo.nerve.gateway.subscribe(() => {
      if (!check(s.roster.list(), s.isRunning)) return;
      clearTimeout(t);
      off();
      resolve();
    });
  });
}

const running = (agents: AgentRecord[]) => agents.filter((r) => r.status === 'running').length;
const dock = (page: Page) => page.locator('.agent-dock-counts');
const type = async (page: Page, text: string) => {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
};

describe('nerve roster views in the web app', () => {
  it('dock, panel, tab, queue chips and split Stop at 390×844; the panel keys at 1280×800', async () => {
    await using dir = await tempDir('collie-web-nerve-');
    // Nerve's state where the bridge looks for its API: <bridge state>/nerve/api.json.
    const demo = await startDemoNerve(join(dir.path, 'demo'), undefined, join(dir.path, 'state', 'nerve'));
    try {
      await untilRoster(demo, 'three running and the turn over', (a, on) => running(a) === 3 && !on);
      await using rig = await durableRig(dir.path, [{ name: 'nerve', address: demo.nerve.durable! }]);
      const { page } = rig;
      await untilDurable(rig.bridge.hub, 'the nerve session', (d) => d.conversations.has(`nerve\n${demo.sessionId}`));
      await page.goto(`/#/durable/nerve/${demo.sessionId}`);

      // Inline lines at their spawn points and the dock.
      await expect.poll(() => page.locator('main .agent-line').count(), { timeout: 30_000 }).toBe(3);
      await expect.poll(() => dock(page).textContent()).toBe('3 running · 0 done');
      // The header's second line counts as the dock does.
      await expect.poll(() => page.locator('.durable-header .durable-line2').textContent()).toBe('Background agents: 3 running · 0 done');
      await expect.poll(() => page.locator('main .agent-line .agent-name').allTextContents()).toEqual(['Survey the tests', 'Read the docs', 'Watch the build']);
      await page.screenshot({ path: artifactPath('web/nerve-chat-390.png') });
      await axeBoth(page, '.durable-dock');
      await axeBoth(page, 'main');

      // The panel: grouped, Stop all in its header.
      await page.locator('.agent-dock').click();
      const panel = page.getByRole('complementary', { name: 'Agents' });
      await panel.waitFor();
      expect(await panel.locator('.agents-group h3').allTextContents()).toEqual(['Running 3']);
      await panel.getByRole('button', { name: 'Stop all…' }).waitFor();
      await page.screenshot({ path: artifactPath('web/nerve-panel-390.png') });
      await axeBoth(page, '.agents-panel');

      // A tab: the agent's line and its brief; the panel closes on a phone.
      await panel.getByRole('button', { name: 'Open Read the docs' }).click();
      await page.getByRole('button', { name: 'Read the docs', exact: true }).waitFor();
      await page.locator('.agent-tab .agent-prompt', { hasText: 'Summarise the docs' }).waitFor();
      // Its transcript as Nerve has it (the sub-agent's first model call is still streaming: empty so far).
      const docs = demo.nerve.gateway.sessions.get(demo.sessionId)!.roster.list().find((r) => r.name === 'Read the docs')!;
      demo.nerve.gateway.flush();
      const held = demo.nerve.gateway.store.transcript(docs.agent_id, -1).length;
      await expect.poll(() => page.locator('.agent-tab .tl').count(), { timeout: 30_000 }).toBe(held);
      if (held === 0) await page.getByText('Nothing in the transcript yet.').waitFor();
      await page.screenshot({ path: artifactPath('web/nerve-tab-390.png') });
      await axeBoth(page, '.agent-tab');
      await page.getByRole('button', { name: 'Chat', exact: true }).click();

      // The queue: a long turn runs, two more messages wait, in run order, the top one next.
      demo.api.script(() => say('Thinking it over for a long while.', 10 * 60_000));
      await type(page, 'first: a long turn');
      await untilRoster(demo, 'the long turn', (_a, on) => on);
      await type(page, 'second in line');
      await type(page, 'third in line');
      const chips = page.getByRole('list', { name: 'Queued messages' }).locator('.queue-preview');
      await expect.poll(() => chips.allTextContents(), { timeout: 30_000 }).toEqual(['second in line', 'third in line']);
      // Queued messages show only as chips: no line in the thread until their turn starts.
      const userLines = (text: string) => page.locator('main .chat-user', { hasText: text }).count();
      expect(await userLines('second in line')).toBe(0);
      expect(await userLines('third in line')).toBe(0);
      // At the page's foot the chips cover nothing: the newest item ends above them.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(async () => (await newestUnderDock(page)).under).toBeLessThanOrEqual(0);
      await page.getByRole('button', { name: 'Move down: second in line' }).click();
      await expect.poll(() => chips.allTextContents()).toEqual(['third in line', 'second in line']);
      expect(demo.nerve.gateway.sessions.get(demo.sessionId)!.queue.list().map((q) => q.preview)).toEqual(['third in line', 'second in line']);
      await page.screenshot({ path: artifactPath('web/nerve-queue-390.png') });
      await axeBoth(page, '.queue-chips');
      // Edit: it leaves the queue and its text comes back into the composer.
      await page.getByRole('button', { name: 'Edit: third in line' }).click();
      await expect.poll(() => chips.allTextContents()).toEqual(['second in line']);
      await expect.poll(() => page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('third in line');

      // The split Stop: the red button ends the turn only; the agents keep running; the queued message runs next.
      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Stopped.' }).waitFor({ timeout: 30_000 });
      // The stopped turn leaves the note "stopped" in the thread, once.
      await page.locator('main .chat-notice', { hasText: /^stopped$/ }).waitFor({ timeout: 30_000 });
      expect(await page.locator('main .chat-notice', { hasText: /^stopped$/ }).count()).toBe(1);
      await demo.api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes('second in line'), 60_000);
      await expect.poll(() => chips.count(), { timeout: 30_000 }).toBe(0);
      // Its turn started: its line shows once, after the first; the edited one left no ghost.
      await expect.poll(() => userLines('second in line'), { timeout: 30_000 }).toBe(1);
      expect(await userLines('third in line')).toBe(0);
      const lines = await page.locator('main .chat-user').allTextContents();
      expect(lines.indexOf('first: a long turn')).toBeLessThan(lines.findIndex((t) => t.includes('second in line')));
      // "stopped" closes the stopped turn: before the next message's line, not after it.
      expect(await page.locator('main .chat-notice', { hasText: /^stopped$/ }).evaluate((n) => {
        const second = [...document.querySelectorAll('main .chat-user')].find((u) => u.textContent?.includes('second in line'));
        return second ? Boolean(n.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING) : false;
      })).toBe(true);
      await page.screenshot({ path: artifactPath('web/nerve-queue-ran-390.png') });
      expect(running(demo.nerve.gateway.sessions.get(demo.sessionId)!.roster.list())).toBe(3);
      await page.getByRole('button', { name: 'More ways to stop' }).click();
      await page.getByRole('menuitem', { name: 'Stop all agents…' }).waitFor();
      await page.screenshot({ path: artifactPath('web/nerve-split-stop-390.png') });
      await axeBoth(page, '.split-stop');
      await page.getByRole('button', { name: 'More ways to stop' }).click();

      // A desktop: Ctrl+Shift+E opens the panel beside the chat; ↓ Enter opens a tab; x x stops; Esc back.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole('textbox', { name: 'Message' }).fill('');
      await page.getByRole('textbox', { name: 'Message' }).focus();
      await page.keyboard.press('Control+Shift+E');
      await panel.waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toBe('agent-row');
      await page.keyboard.press('End');
      await expect.poll(() => panel.locator('[aria-current="true"] .agent-name').textContent()).toBe('Watch the build');
      await page.keyboard.press('Home');
      await expect.poll(() => panel.locator('[aria-current="true"] .agent-name').textContent()).toBe('Survey the tests');
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => panel.locator('[aria-current="true"] .agent-name').textContent()).toBe('Read the docs');
      await page.keyboard.press('Enter');
      await page.locator('.agent-tab .agent-prompt', { hasText: 'Summarise the docs' }).waitFor();
      await panel.locator('[data-row][aria-current="true"]').focus();
      await page.keyboard.press('x');
      await panel.getByRole('button', { name: 'Stop Read the docs: tap again to stop' }).waitFor();
      await page.screenshot({ path: artifactPath('web/nerve-panel-1280.png') });
      await axeBoth(page, '.agents-panel');
      await page.keyboard.press('x');
      await untilRoster(demo, 'Read the docs stopped', (a) => a.find((r) => r.name === 'Read the docs')?.status === 'stopped');
      await expect.poll(() => panel.locator('.agents-group h3').allTextContents(), { timeout: 30_000 }).toEqual(['Running 2', 'Ended 1']);
      await expect.poll(() => page.locator('.agent-tab .agent-status').textContent()).toBe('Stopped (user)');
      // The open tab follows its transcript live: the status line arrives without a reload.
      await expect.poll(() => page.locator('.agent-tab .tl-status .tl-text').last().textContent(), { timeout: 30_000 }).toBe('stopped (user)');
      await page.keyboard.press('Escape');
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');
      // ↓ in the empty message box opens the panel; Ctrl+Shift+E toggles it shut.
      await page.keyboard.press('Control+Shift+E');
      await expect.poll(() => panel.count()).toBe(0);
      await page.getByRole('textbox', { name: 'Message' }).focus();
      await page.keyboard.press('ArrowDown');
      await panel.waitFor();

      // Stop all from the panel's header (two steps): every live agent ends as stopped (stop_all).
      await panel.getByRole('button', { name: 'Stop all…' }).click();
      await panel.getByRole('button', { name: 'Stop 2 agents?' }).click();
      await untilRoster(demo, 'all stopped', (a) => a.every((r) => r.status === 'stopped'));
      await expect.poll(() => panel.locator('.agents-group h3').allTextContents(), { timeout: 30_000 }).toEqual(['Ended 3']);
      await expect.poll(() => dock(page).textContent()).toBe('0 running · 0 done · 3 ended');
      await page.screenshot({ path: artifactPath('web/nerve-ended-1280.png') });
      expect(demo.nerve.gateway.store.sessionEvents(demo.sessionId).map((e) => [e.name, e.requested_by])).toEqual(
        expect.arrayContaining([
          ['stop_requested', 'phone'],
          ['agent_stop_requested', 'phone'],
          ['agents_stop_all_requested', 'phone'],
        ]),
      );
      expect(rig.errors).toEqual([]);
    } finally {
      await demo.stop();
    }
  }, 300_000);
});
