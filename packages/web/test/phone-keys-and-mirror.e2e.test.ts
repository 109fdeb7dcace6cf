import { join } from 'node:path';
import { startBridge } from '@collie/bridge';
import { artifactPath, launchChromium, phoneContext, startTmux, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildWeb, fakeClaude, gitDir, showTerminal, untilPane } from './e2e-setup';

const shot = (page: Page, name: string) => page.screenshot({ path: artifactPath(`web/${name}.png`) });

/**
 * Issue 17 (5, 6, 9, 10): the composer's Enter on a desktop and on a phone, its placeholder per
 * pane kind, Esc back on a desktop, Fit to width remembered per pane, a short screen's top, and
 * a long entry in Recent sends that expands; through a real bridge over a private tmux server.
 */
describe('the composer, Esc and the mirror on a phone and a desktop', () => {
  it('Enter sends on a desktop and makes a new line on a phone; Esc goes back; Fit to width is kept per pane; a long entry expands', async () => {
    await using work = await tempDir('collie-keys-mirror-e2e-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    const repo = await gitDir(work.path, 'shop-api', 'main');
    await using tmux = await startTmux();
    // A 200-column agent pane (wider than any phone), a short shell screen and a second shell.
    const agent = await tmux.newSession('work', { cmd: [fakeClaude, 'working'], cwd: repo, width: 200, height: 50 });
    const shell = await tmux.newWindow('work', { cmd: 'sh', cwd: work.path });
    await using state = await tempDir('collie-state-');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    const agentId = `${tmux.name}:${agent}`;
    const shellId = `${tmux.name}:${shell}`;
    await untilPane(bridge.hub, 'the working stand-in', (p) => p.id === agentId && p.state === 'working');
    await untilPane(bridge.hub, 'the shell', (p) => p.id === shellId && p.harness === 'shell');
    const cookie = (await testDevice(state.path)).cookie(bridge.url);
    await using browser = await launchChromium();

    // A desktop (a fine pointer): the shortcut is said, Shift+Enter is a new line, Enter sends, Esc goes back.
    await using desk = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: bridge.url });
    await desk.addCookies([cookie]);
    const d = await desk.newPage();
    d.setDefaultTimeout(15_000);
    await d.goto(`/#/pane/${encodeURIComponent(shellId)}`);
    await d.locator('.conn-live').waitFor();
    const deskBox = d.getByLabel('Text to send to the pane');
    expect(await deskBox.getAttribute('placeholder')).toBe('Type a command for the shell');
    await d.locator('.composer-hint', { hasText: 'sends' }).waitFor();
    expect(await d.locator('.composer-hint').textContent()).toContain('Shift+Enter new line');
    await deskBox.click();
    await deskBox.pressSequentially('echo one');
    await deskBox.press('Shift+Enter');
    expect(await deskBox.inputValue()).toBe('echo one\n');
    await deskBox.fill('echo collie-enter-$((40+2))');
    await deskBox.press('Enter');
    await d.locator('.send', { hasText: 'echo collie-enter-' }).locator('.send-outcome', { hasText: 'typed into the pane' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => deskBox.inputValue()).toBe('');
    await expect.poll(() => tmux.capture(shell), { timeout: 15_000 }).toContain('collie-enter-42');
    // No transcript for a shell: the mirror takes the window's width, not half of it beside an empty chat.
    const mirror = await d.locator('.pane-views-terminal').boundingBox();
    expect(mirror!.width).toBeGreaterThan(1000);
    await shot(d, 'keys-desktop-enter-sent');
    // Esc in a box holding text is the person's; in an empty box it goes back to the panes.
    await deskBox.fill('keep me');
    await deskBox.press('Escape');
    expect(d.url()).toContain('/pane/');
    await deskBox.fill('');
    await deskBox.press('Escape');
    await d.locator('.row').nth(1).waitFor();
    expect(d.url()).not.toContain('/pane/');
    await shot(d, 'keys-desktop-esc-back');

    // A phone: Enter is a new line (Send is under the thumb), the agent's placeholder, no Esc back.
    await using phone = await phoneContext(browser, { baseURL: bridge.url });
    await phone.addCookies([cookie]);
    const p = await phone.newPage();
    p.setDefaultTimeout(15_000);
    await p.goto(`/#/pane/${encodeURIComponent(agentId)}`);
    await p.locator('.conn-live').waitFor();
    const box = p.getByLabel('Text to send to the pane');
    expect(await box.getAttribute('placeholder')).toBe('Message the agent');
    expect(await p.locator('.composer-hint').count()).toBe(0);
    await box.fill('first line');
    await box.press('Enter');
    expect(await box.inputValue()).toBe('first line\n');
    expect((bridge.hub.sends.get(agentId) ?? []).length).toBe(0);

    // A long held entry in Recent sends shows its start, and all of it on a tap.
    const long = `${'please look at the login refresh and the session cookie, '.repeat(4)}and the end is here`;
    await box.fill(long);
    await p.getByRole('button', { name: 'Send', exact: true }).click();
    const item = p.locator('.send', { hasText: 'please look at the login' });
    await item.locator('.send-outcome', { hasText: 'held' }).waitFor();
    const summary = item.locator('.send-summary');
    expect(await summary.getAttribute('aria-expanded')).toBe('false');
    expect(await summary.textContent()).not.toContain('and the end is here');
    await summary.click();
    expect(await summary.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => summary.textContent()).toBe(long);
    await shot(p, 'keys-phone-long-entry-open');

    // Fit to width: the 200-column screen fits the phone's width, and the choice is kept for this pane only.
    await showTerminal(p);
    const scroller = p.locator('.term-scroll');
    const fits = () => scroller.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
    expect(await fits()).toBe(false);
    const fit = p.getByRole('button', { name: 'Fit to width' });
    expect(await fit.getAttribute('aria-pressed')).toBe('false');
    await fit.click();
    expect(await fit.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(fits).toBe(true);
    await shot(p, 'keys-phone-fit-to-width');
    await p.goto(`/#/pane/${encodeURIComponent(shellId)}`);
    await p.locator('.pane-views .term').waitFor();
    expect(await p.getByRole('button', { name: 'Fit to width' }).getAttribute('aria-pressed')).toBe('false');
    // The shell's short screen: its top shown (its first line in view), not a blank box.
    const top = await p.locator('.term-scroll').evaluate((el) => el.scrollTop);
    expect(top).toBe(0);
    expect((await p.locator('.term').textContent())?.trimStart().length).toBeGreaterThan(0);
    await shot(p, 'keys-phone-short-screen');
    await p.goto(`/#/pane/${encodeURIComponent(agentId)}`);
    await showTerminal(p);
    expect(await p.getByRole('button', { name: 'Fit to width' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(fits).toBe(true);
  }, 240_000);
});
