import AxeBuilder from '@axe-core/playwright';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startBridge } from '@collie/bridge';
import { askLine, waitsOnUser } from '@collie/protocol';
import { artifactPath, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fakeClaude, untilPane } from './e2e-setup';
import { openPhone, webWork } from './phone-rig';

/** axe-core on what the page shows now: the serious and critical violations, in words. */
async function axeProblems(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Issue 10: a blocked pane's dashboard row shows the one line of what is asked, the same words
 * the push carries, so the phone's list tells what each agent wants without opening it.
 */
describe('the dashboard says what a blocked pane asks', () => {
  it('shows the ask line on a blocked row (the push first line) and nothing on a working one', async () => {
    await using work = await webWork('collie-ask-row-');
    const { dist } = work;
    const fifo = join(work.path, 'screen.fifo');
    await promisify(execFile)('mkfifo', [fifo]);
    await using tmux = await startTmux();
    const askPane = await tmux.newSession('api', { cmd: [process.execPath, fakeClaude, 'permission-edit'], env: { COLLIE_FAKE_FIFO: fifo } });
    const busyPane = await tmux.newSession('web', { cmd: [process.execPath, fakeClaude, 'working'] });
    await using state = await tempDir('collie-state-');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    const blocked = await untilPane(bridge.hub, 'the blocked pane', (p) => p.tmuxId === askPane && waitsOnUser(p) && p.card !== null, 30_000);
    await untilPane(bridge.hub, 'the working pane', (p) => p.tmuxId === busyPane && p.state === 'working', 30_000);
    if (!blocked.card) throw new Error('no card');
    const line = askLine(blocked.card);
    // The tool and the file it is about, as the card shows them.
    expect(line).toMatch(/^\S[^:]*: \S/);

    await using phone = await openPhone(bridge, state.path, { timeout: 20_000 });
    const { page } = phone;
    await page.goto('/');
    const row = page.locator('.row', { has: page.locator('.row-ask') });
    await expect.poll(() => page.locator('.row-ask').allTextContents(), { timeout: 20_000 }).toEqual([line]);
    // The row's accessible name says it too, for a screen reader reading the list.
    expect(await row.getAttribute('aria-label')).toContain(line);
    // It stays inside the screen's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeProblems(page), scheme).toEqual([]);
      await page.screenshot({ path: artifactPath(`web/dashboard-ask-${scheme}.png`) });
    }

    // Answered at the desk (the agent's screen goes back to its prompt): the line goes with the question.
    await writeFile(fifo, 'fresh-idle\n');
    await expect.poll(() => page.locator('.row-ask').count(), { timeout: 30_000 }).toBe(0);
  }, 180_000);
});
