import { longTurn, plainReply } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { untilPane, openPaneMenu } from './e2e-setup';
import { claudePhone, shot } from './phone-rig';

/** Rename a pane and close an agent mid-turn from a phone-sized Chromium (real tmux, the real Claude Code TUI). */
describe('managing panes from the phone', () => {
  it('renames the pane, sends a quick reply, and closes a working agent only after the second tap', async () => {
    await using rig = await claudePhone('collie-panes-e2e-', { claude: { width: 100, height: 40 }, phone: { timeout: 20_000, scheme: 'dark', console: true, ignore: /status of 409/ } });
    const { api, claude, bridge, id, page } = rig;
    const { problems } = rig.phone;
    await rig.phone.openPane(id);
    await openPaneMenu(page);
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('Pane name').fill('fix login #2');
    await shot(page, 'panes-rename');
    await page.getByRole('button', { name: 'Save name' }).click();
    // The name is the pane's label (pane-rename.e2e.test.ts follows it to the row and a restart).
    await untilPane(bridge.hub, 'the pane named', (p) => p.id === id && p.label === 'fix login #2', 15_000);

    // A quick reply: one tap, sent through the send protocol with its receipt.
    api.script(plainReply('Continuing.'));
    await page.getByRole('group', { name: 'Quick replies' }).getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.locator('.composer-status .status-words').textContent(), { timeout: 60_000 }).toBe('typed into the pane');
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'Continue.', 60_000);
    await untilPane(bridge.hub, 'the pane idle again', (p) => p.id === id && (p.state === 'idle' || p.state === 'done'), 60_000);
    await shot(page, 'panes-quick-reply');

    api.script(longTurn(60_000, 'never seen'));
    await claude.submit('a long job');
    await untilPane(bridge.hub, 'the agent working', (p) => p.id === id && p.state === 'working', 30_000);
    await openPaneMenu(page);
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    const panel = page.getByRole('alertdialog', { name: 'Close the pane' });
    await panel.locator('.workbench-question', { hasText: 'It runs Claude Code (claude) in' }).waitFor();
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await panel.locator('.workbench-warning', { hasText: 'stops it mid-turn' }).waitFor();
    expect(bridge.hub.panes.has(id)).toBe(true);
    await shot(page, 'panes-close-mid-turn');
    await panel.getByRole('button', { name: 'Close anyway' }).click();
    await expect.poll(() => bridge.hub.panes.has(id), { timeout: 15_000 }).toBe(false);
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#/');
    expect(problems).toEqual([]);
  }, 240_000);
});
