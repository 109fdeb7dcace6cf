import { bashPermission, longTurn, plainReply } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeProblems, fakeClaude, gitDir, showTerminal, untilPane } from './e2e-setup';
import { claudePhone, shot } from './phone-rig';

/** Both themes, axe-checked; a screenshot of each. */
async function axeBothThemes(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeProblems(page), `${name} in ${scheme}`).toEqual([]);
    await shot(page, `${name}-${scheme}`);
  }
}

/** Nothing wider than the screen: no sideways scrolling of the page itself. */
const pageFitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

/**
 * Issue 17 (2–10): answering with confidence, Stop in the header, held sends cancelled and
 * edited, large text, and axe-core, on the real Claude Code TUI (offline, against the scripted
 * Messages API) and stand-in panes, through a real bridge, in Chromium at 390×844.
 */
describe('the phone answers with confidence and reads well at any size', () => {
  it('confirms answers in words, stops from the header, cancels and edits a held send, and passes axe at any size', async () => {
    let busy = '';
    let shell = '';
    await using rig = await claudePhone('collie-confidence-e2e-', {
      claude: { width: 100, height: 40 },
      before: async ({ work, tmux, claude }) => {
        const repo = await gitDir(work.path, 'a-rather-long-repository-name-for-the-shop', 'feature/login-refresh');
        busy = await tmux.newWindow(claude.session, { cmd: [fakeClaude, 'working'], cwd: repo });
        shell = await tmux.newWindow(claude.session, { cmd: 'sh', cwd: work.path });
      },
      readyMs: 30_000,
      phone: { timeout: 15_000 },
    });
    const { api, claude, tmux, bridge, id, page } = rig;
    const { problems } = rig.phone;
    const busyId = `${tmux.name}:${busy}`;
    const idle = () => rig.idle(30_000);
    await untilPane(bridge.hub, 'the working stand-in', (p) => p.id === busyId && p.state === 'working');
    await untilPane(bridge.hub, 'the shell', (p) => p.id === `${tmux.name}:${shell}`);

    // The dashboard: the branch kept, a shell called by its folder and "Shell", rows named in words.
    await page.goto('/');
    await page.locator('.conn-live').waitFor();
    await page.locator('.row').nth(2).waitFor();
    const busyRow = page.locator('.row', { hasText: 'feature/login-refresh' });
    await busyRow.waitFor();
    expect(await busyRow.getAttribute('aria-label')).toMatch(/^a-rather-long-repository-name-for-the-shop#feature\/login-refresh, Working for \d+ (second|minute)/);
    const shellRow = page.locator('.row', { hasText: 'collie-confidence-e2e-' });
    await expect(shellRow.locator('.pill').textContent()).resolves.toBe('Shell');
    expect(await page.getByRole('heading', { name: 'Collie', level: 1 }).count()).toBe(1);
    await axeBothThemes(page, 'confidence-dashboard');

    // A permission card comes first under the title; a wider answer needs a second tap; the
    // answer is said in words where the card was.
    await page.goto(`/#/pane/${encodeURIComponent(id)}`);
    await page.locator('.conn-live').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('pane-title');
    // The Terminal view keeps the card under the title (the Chat view keeps it at the chat's foot, pane-chat.e2e).
    await showTerminal(page);
    const box = page.getByLabel('Text to send to the pane');
    api.script(bashPermission('rm -rf ./build'));
    await box.fill('clean the build');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const card = page.locator('.card');
    await card.waitFor({ timeout: 30_000 });
    expect(await page.locator('.pane-head + .sr-only + .ask .card').count(), 'the card right under the title').toBe(1);
    expect(await page.locator('.pane-address').isVisible(), 'the address folded into Details').toBe(false);
    await expect(page.locator('.sr-only[aria-live]').textContent()).resolves.toMatch(/^New ask, Permission: /);
    expect(await card.locator('.option-primary').count()).toBe(1);
    const wider = card.locator('.option-wider');
    expect(await wider.count()).toBeGreaterThan(0);
    await wider.first().click();
    await card.getByText('Tap again to confirm', { exact: false }).waitFor();
    await axeBothThemes(page, 'confidence-card');
    // At 150 % zoom (a 260 px wide screen), the first answer is still on the first screen.
    await page.setViewportSize({ width: 260, height: 563 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const first = await card.locator('.option').first().boundingBox();
    expect(first!.y + first!.height).toBeLessThanOrEqual(563);
    // On the first screen and not under anything (the top bar, the dock): a tap there lands on it.
    const hit = await card.locator('.option').first().evaluate((el) => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
    });
    expect(hit).toBe(true);
    expect(await pageFitsWidth(page)).toBe(true);
    await shot(page, 'confidence-card-zoom150');
    await page.setViewportSize({ width: 390, height: 844 });
    await card.locator('.option-primary').click();
    await page.locator('.answered', { hasText: 'Allowed once: rm -rf ./build' }).waitFor();
    await shot(page, 'confidence-answered');
    await api.waitForRequest((q) => q.kind === 'main' && q.toolResults.length > 0, 20_000);
    await idle();

    // Stop in the header, only while the agent works; the keys pad has none on an idle pane.
    await page.locator('.pill-working').waitFor({ state: 'detached' });
    await page.locator('.stop-button').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Keys' }).click();
    await page.locator('.keys').waitFor();
    expect(await page.getByRole('button', { name: 'Stop: end the running turn' }).count()).toBe(0);
    await axeBothThemes(page, 'confidence-keys');
    await page.getByRole('button', { name: 'Keys' }).click();
    api.script(longTurn(60_000, 'This turn takes a minute.'));
    await box.fill('take your time');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('.stop-button').waitFor({ timeout: 30_000 });
    await shot(page, 'confidence-stop-header');
    await page.locator('.stop-button').click();
    await page.locator('.stop-result', { hasText: 'Stopped' }).waitFor({ timeout: 20_000 });
    await page.locator('.stop-button').waitFor({ state: 'detached' });
    await shot(page, 'confidence-stopped');
    await idle();

    // A send to a working pane is held: cancelled from Recent sends, then one edited and sent again.
    api.script(plainReply('unused'));
    await page.goto(`/#/pane/${encodeURIComponent(busyId)}`);
    await page.locator('.conn-live').waitFor();
    await box.fill('first, while you work');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const heldItem = page.locator('.send', { hasText: 'first, while you work' });
    await heldItem.locator('.send-outcome', { hasText: 'held: agent working' }).waitFor();
    await page.goto('/');
    await busyRow.locator('.flag-queued', { hasText: '1 queued' }).waitFor();
    expect(await busyRow.getAttribute('aria-label')).toMatch(/, 1 queued$/);
    await shot(page, 'confidence-dashboard-queued');
    await page.goBack();
    await heldItem.getByRole('button', { name: 'Cancel', exact: true }).click();
    await heldItem.locator('.send-outcome', { hasText: 'not sent: cancelled' }).waitFor();
    expect(await heldItem.getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
    await box.fill('second, to be edited');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const second = page.locator('.send', { hasText: 'second, to be edited' });
    await second.locator('.send-outcome', { hasText: 'held' }).waitFor();
    await second.getByRole('button', { name: 'Edit', exact: true }).click();
    await second.locator('.send-outcome', { hasText: 'not sent: cancelled' }).waitFor();
    await expect.poll(() => box.inputValue()).toBe('second, to be edited');
    await box.fill('second, edited');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('.send', { hasText: 'second, edited' }).locator('.send-outcome', { hasText: 'held' }).waitFor();
    await shot(page, 'confidence-held-edited');
    const texts = (bridge.hub.sends.get(busyId) ?? []).map((r) => `${r.summary}: ${r.outcome}`);
    expect(texts).toEqual(['first, while you work: not sent: cancelled', 'second, to be edited: not sent: cancelled', 'second, edited: held: agent working']);

    // Touch targets at least 44 px tall, at the default text size.
    const small = await page.evaluate(() =>
      [...document.querySelectorAll('button, a[href], summary, input')]
        .filter((el) => el.getClientRects().length > 0 && !el.closest('.term-scroll'))
        .map((el) => ({ el: (el.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 30), h: el.getBoundingClientRect().height }))
        .filter((t) => t.h < 44),
    );
    expect(small).toEqual([]);
    // 200 % root font: rows wrap, the composer stacks, nothing scrolls sideways.
    await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
    expect(await pageFitsWidth(page)).toBe(true);
    await shot(page, 'confidence-pane-font200');
    await page.goto('/');
    await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
    await page.locator('.row').nth(2).waitFor();
    expect(await pageFitsWidth(page)).toBe(true);
    await expect(busyRow.locator('.label-branch').isVisible()).resolves.toBe(true);
    await shot(page, 'confidence-dashboard-font200');
    expect(problems).toEqual([]);
  }, 300_000);
});
