import { startBridge } from '@collie/bridge';
import { artifactPath, startTmux, tempDir, testBridgeOptions, USAGE_AGENTS, type ReportedUsage } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { axeProblems, untilPane } from './e2e-setup';
import { openPhone, webWork } from './phone-rig';

const SLOW = 240_000;

/**
 * The header line the page should show for what the API reported, written out by hand: the model
 * as recorded, the session's tokens in thousands (`32 k`), the cost in cents. None of these agents
 * records its model's window, so no context share.
 */
const LINES: Record<(typeof USAGE_AGENTS)[number]['harness'], (r: ReportedUsage) => string> = {
  gemini: (r) => `${r.model} · 120 tokens`,
  pi: () => 'fake-coder · 32 k tokens · $0.12',
  opencode: () => 'fake-coder · 32 k tokens · $0.12',
};

const FROM = { gemini: 'Gemini CLI’s chat file', pi: 'pi’s session file', opencode: 'OpenCode’s database' } as const;

/**
 * Issue 29 on the phone at 390×844 for the agents whose usage is read from their own files: a real
 * Gemini CLI, pi and OpenCode session against its scripted API (the testkit's USAGE_AGENTS), then
 * the pane page's header line shows the model, tokens and cost the API reported, its title names
 * the record, and axe finds nothing in light or dark.
 */
describe('usage on the phone from the agents’ own records', () => {
  for (const agent of USAGE_AGENTS) {
    it.skipIf(agent.missing() !== null)(`${agent.name}: the header line`, async () => {
      await using work = await webWork('collie-usage-agents-web-');
      const { dist } = work;
      await using tmux = await startTmux();
      await using state = await tempDir('collie-state-');
      await using session = await agent.start(tmux);
      await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
      const mine = (p: { tmuxId: string }) => p.tmuxId === session.pane.paneId;
      const pane = await untilPane(bridge.hub, agent.name, (p) => mine(p) && p.harness === agent.harness, SLOW);
      const reported = await session.run((n) => untilPane(bridge.hub, `${n} tokens`, (p) => mine(p) && p.usage?.sessionTokens === n, SLOW));

      await using phone = await openPhone(bridge, state.path, { timeout: 20_000 });
      const { page } = phone;
      expect(page.viewportSize()).toEqual({ width: 390, height: 844 });
      await page.goto(`/#/pane/${encodeURIComponent(pane.id)}`);
      const line = page.locator('.pane-usage');
      await expect.poll(() => line.textContent(), { timeout: 20_000 }).toBe(LINES[agent.harness](reported));
      expect(await line.getAttribute('title')).toContain(`Model and tokens from ${FROM[agent.harness]} (${reported.model})`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        expect(await axeProblems(page), scheme).toEqual([]);
        await page.screenshot({ path: artifactPath(`web/usage-${agent.harness}-${scheme}.png`) });
      }
    }, 600_000);
  }
});
