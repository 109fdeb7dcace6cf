import { startBridge } from '@collie/bridge';
import { momentWords } from '@collie/protocol';
import {
  artifactPath,
  codexMissing,
  startClaude,
  startCodex,
  startMessagesApi,
  startResponsesApi,
  startTmux,
  tempDir,
  testBridgeOptions,
  type Turn,
} from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { axeProblems, openPaneMenu, untilPane } from './e2e-setup';
import { openPhone, webWork } from './phone-rig';

const SLOW = 180_000;

/**
 * Issue 29 on the phone at 390×844: a real Claude Code pane whose context passed 60 % (its row's
 * gauge, its header's `opus-5.5 · context 70 % · 701 k tokens` and where the figures come from),
 * and a real Codex pane at its usage limit (`rate_limits` at 100 %): "Limit reached · resets
 * HH:MM" on its row, its pill not "idle" (its rank with the panes that need you: rank.test.ts).
 */
describe.skipIf(codexMissing() !== null)('usage on the phone', () => {
  it('a context gauge and the header line for Claude Code; the limit state for Codex', async () => {
    await using work = await webWork('collie-usage-web-');
    const { dist } = work;
    await using tmux = await startTmux();
    await using messages = await startMessagesApi();
    await using responses = await startResponsesApi();
    await using claude = await startClaude(tmux, messages);
    await using codex = await startCodex(tmux, responses);
    await using state = await tempDir('collie-state-');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    await untilPane(bridge.hub, 'claude', (p) => p.tmuxId === claude.paneId && p.harness === 'claude', SLOW);
    await untilPane(bridge.hub, 'codex', (p) => p.tmuxId === codex.paneId && p.harness === 'codex', SLOW);

    messages.script((): Turn => ({ blocks: [{ type: 'text', text: 'Read the whole tree.' }], usage: { input_tokens: 1200, cache_creation_input_tokens: 0, cache_read_input_tokens: 700_000, output_tokens: 45 } }));
    await claude.submit('read everything');
    const c = await untilPane(bridge.hub, 'claude usage', (p) => p.tmuxId === claude.paneId && p.usage?.sessionTokens === 701_245, SLOW);
    const reset = Math.ceil(Date.now() / 60_000 + 90) * 60;
    responses.script(() => ({ text: 'Done for now.', headers: { 'x-codex-primary-used-percent': '100', 'x-codex-primary-window-minutes': '300', 'x-codex-primary-reset-at': String(reset) } }));
    await codex.submit('one more');
    const x = await untilPane(bridge.hub, 'codex at its limit', (p) => p.tmuxId === codex.paneId && p.usage?.limit?.state === 'reached' && p.state !== 'working', SLOW);

    await using phone = await openPhone(bridge, state.path, { timeout: 20_000, timezoneId: 'UTC' });
    const { page, context } = phone;
    await page.goto('/');
    // The phone's clock: `15:00`, or `Sun 00:30` when the reset falls on its next day.
    const hhmm = momentWords(new Date(reset * 1000).toISOString(), Date.now(), 'UTC');

    const codexRow = page.locator(`a.row[href="#/pane/${encodeURIComponent(x.id)}"]`);
    await expect.poll(() => codexRow.locator('.row-limit').textContent(), { timeout: 20_000 }).toBe(`Limit reached · resets ${hhmm}`);
    expect(await codexRow.locator('.pill').textContent()).toBe('Limit reached');
    expect(await codexRow.getAttribute('aria-label')).toContain(`Limit reached · resets ${hhmm}`);
    const claudeRow = page.locator(`a.row[href="#/pane/${encodeURIComponent(c.id)}"]`);
    const gauge = claudeRow.locator('[role="meter"]');
    await expect.poll(() => gauge.getAttribute('aria-valuenow'), { timeout: 20_000 }).toBe('70');
    expect(await gauge.textContent()).toBe('context 70 %');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeProblems(page), scheme).toEqual([]);
      await page.screenshot({ path: artifactPath(`web/usage-rows-${scheme}.png`) });
    }

    await page.goto(`/#/pane/${encodeURIComponent(c.id)}`);
    await expect.poll(() => page.locator('.pane-usage').textContent(), { timeout: 20_000 }).toBe('opus-5.5 · context 70 % · 701 k tokens');
    expect(await page.locator('.pane-usage').getAttribute('title')).toContain('Claude Code’s transcript');
    await openPaneMenu(page);
    expect(await page.locator('.pane-usage-from').textContent()).toContain('table of known models');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await page.screenshot({ path: artifactPath('web/usage-header.png') });
  }, 600_000);
});
