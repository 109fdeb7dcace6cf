import { join } from 'node:path';
import { startBridge } from '@collie/bridge';
import { artifactPath, demoLauncherName, launchChromium, phoneContext, startDemo, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { buildWeb, showTerminal, untilPane } from './e2e-setup';

/**
 * What a newcomer sees: `collie demo`'s real Claude Code panes (running offline against the
 * scripted Messages API) on the phone dashboard, blocked one first, and a live mirror.
 */
describe('the demo on the phone', () => {
  it('lists the demo panes with the blocked one first, and a pane mirror follows its pane', async () => {
    await using work = await tempDir('collie-demo-e2e-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    await using tmuxDir = await tempDir('collie-demo-tmux-');
    await using state = await tempDir('collie-state-');
    // The bridge's config dir, as `collie demo` passes it: New offers the demo's agents from there.
    const configDir = join(state.path, 'config');
    await using demo = await startDemo({ tmpDir: tmuxDir.path, name: `collie-demo-${process.pid}`, log: () => undefined, configDir });
    await using bridge = await startBridge(testBridgeOptions(tmuxDir.path, state.path, { webDir: dist, machine: 'demobox', configDir }));
    const id = (role: string) => `${demo.tmux.name}:${demo.panes.find((p) => p.role === role)!.paneId}`;
    await untilPane(bridge.hub, 'the permission pane blocked', (p) => p.id === id('permission') && p.state === 'blocked' && p.dialog === 'permission', 30_000);
    await untilPane(bridge.hub, 'the working pane', (p) => p.id === id('working') && p.state === 'working', 30_000);
    // Its turn ended before the bridge started: nobody saw it end, so it is idle, not done.
    await untilPane(bridge.hub, 'the idle pane', (p) => p.id === id('idle') && p.state === 'idle', 30_000);
    await untilPane(bridge.hub, 'the shell', (p) => p.id === id('shell'));
    await untilPane(bridge.hub, 'the Codex pane blocked', (p) => p.id === id('codex-approval') && p.harness === 'codex' && p.state === 'blocked', 30_000);
    await untilPane(bridge.hub, 'the Gemini pane idle', (p) => p.id === id('gemini-idle') && p.harness === 'gemini' && p.state === 'idle', 30_000);

    await using browser = await launchChromium();
    const context = await phoneContext(browser, { baseURL: bridge.url });
    await context.addCookies([(await testDevice(state.path)).cookie(bridge.url)]);
    const page = await context.newPage();
    const cspErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    await page.goto('/');
    await page.locator('.conn-live').waitFor();
    await page.locator('.row').nth(5).waitFor();
    const pills = await page.locator('.row .pill').allTextContents();
    expect(pills.map((p) => p.trim())).toEqual(['Blocked', 'Blocked', 'Working', 'Idle', 'Idle', 'Shell']);
    await expect.poll(() => page.locator('.row').first().textContent()).toContain('Permission');
    await page.screenshot({ path: artifactPath('web/demo-dashboard.png') });

    // The working pane: its mirror shows the Claude screen and moves with the turn's timer.
    await page.locator('.row-working').click();
    await showTerminal(page);
    const term = page.locator('.term');
    await expect.poll(() => term.textContent(), { timeout: 15_000 }).toMatch(/esc to interrupt|Claude Code/);
    const before = await term.textContent();
    await expect.poll(() => term.textContent(), { timeout: 15_000 }).not.toBe(before);
    await page.screenshot({ path: artifactPath('web/demo-pane-working.png') });

    // The shell: what is typed into the pane shows up in the mirror.
    await page.getByRole('link', { name: 'Panes' }).click();
    await page.locator('.row-unknown').click();
    await term.waitFor();
    const shell = demo.panes.find((p) => p.role === 'shell')!.paneId;
    await demo.tmux.typeText(shell, 'echo mirror-follows-the-pane');
    await demo.tmux.sendKeys(shell, 'Enter');
    await expect.poll(() => term.textContent(), { timeout: 10_000 }).toMatch(/^mirror-follows-the-pane$/m);
    await page.screenshot({ path: artifactPath('web/demo-pane-shell.png') });

    // Issue 27: New offers every agent the demo runs (they are not on the bridge's PATH).
    await page.goto('/#/new');
    const form = page.locator('.new-form');
    await form.waitFor({ timeout: 60_000 });
    const offered = await form.locator('.new-choice-name').allTextContents();
    for (const agent of ['claude', 'codex', 'gemini']) expect(offered, offered.join(', ')).toContain(demoLauncherName(agent));
    await page.screenshot({ path: artifactPath('web/demo-new-agents.png') });
    // A worktree in a demo repository, which has no commit: git's refusal in words.
    await form.getByRole('radio', { name: new RegExp(`^${demoLauncherName('claude')}`) }).check();
    await form.getByRole('checkbox', { name: 'In a new git worktree, on a new branch' }).check();
    await form.getByRole('textbox', { name: 'Branch' }).fill('try-it');
    await form.getByRole('button', { name: 'Start' }).click();
    await form.getByRole('alert').filter({ hasText: 'This repository has no commit yet; make a first commit to create worktrees' }).waitFor();
    expect(await form.getByRole('alert').textContent()).not.toMatch(/fatal|HEAD/);
    await form.getByRole('alert').scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('web/demo-new-no-commit.png') });
    // Without a worktree, the demo's Claude starts and is read as Claude Code.
    await form.getByRole('checkbox', { name: 'In a new git worktree, on a new branch' }).uncheck();
    await form.getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => page.evaluate(() => window.location.hash), { timeout: 30_000 }).toMatch(/^#\/pane\//);
    const started = decodeURIComponent((await page.evaluate(() => window.location.hash)).replace('#/pane/', ''));
    await untilPane(bridge.hub, 'the demo Claude started from New', (p) => p.id === started && p.harness === 'claude' && p.state === 'idle', 60_000);
    expect(cspErrors).toEqual([]);
    await context.close();
  }, 240_000);
});
