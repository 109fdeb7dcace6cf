import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startBridge } from '@collie/bridge';
import { artifactPath, claudeLauncher, FAKE_API_KEY, launchChromium, phoneContext, plainReply, startClaude, startMessagesApi, startTmux, tempDir, testBridgeOptions, testDevice, writeClaudeConfig } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeProblems, buildWeb, untilPane } from './e2e-setup';

const shot = (page: Page, name: string) => page.screenshot({ path: artifactPath(`web/${name}.png`) });

/**
 * Issue 30: on a phone-sized Chromium, two past Claude Code sessions (the real CLI against the
 * scripted Messages API, in two folders, their panes closed) are listed on the Sessions page,
 * one is read in the pane Chat's view and resumed in a new pane; a message sent from the phone
 * reaches the model with the earlier turns.
 */
describe('the Sessions page', () => {
  it('lists two closed Claude Code sessions, reads one, resumes it and continues the conversation from the phone', async () => {
    await using work = await tempDir('collie-sessions-e2e-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    const root = await realpath(work.path);
    const [a, b] = [join(root, 'shop'), join(root, 'docs')];
    for (const f of [a, b]) {
      await mkdir(f);
      await promisify(execFile)('git', ['init', '-q', '-b', 'main', f]);
    }
    await using api = await startMessagesApi();
    const cfg = join(work.path, 'claude');
    await mkdir(join(cfg, 'home'), { recursive: true, mode: 0o700 });
    await writeClaudeConfig(cfg, { cwd: a, apiKey: FAKE_API_KEY });
    const claudeState = JSON.parse(await readFile(join(cfg, '.claude.json'), 'utf8')) as { projects: Record<string, unknown> };
    claudeState.projects[b] = claudeState.projects[a];
    await writeFile(join(cfg, '.claude.json'), JSON.stringify(claudeState));
    const config = join(work.path, 'config');
    await mkdir(config, { mode: 0o700 });
    await writeFile(join(config, 'launchers.json'), JSON.stringify({ launchers: [{ name: 'claude offline', command: claudeLauncher(api, cfg) }] }));

    await using tmux = await startTmux();
    await tmux.newSession('home', { cmd: 'cat', cwd: work.path, width: 100, height: 40 });
    for (const [folder, words] of [
      [a, 'remember the word heron'],
      [b, 'write the release notes'],
    ] as const) {
      await using claude = await startClaude(tmux, api, { cwd: folder, env: { CLAUDE_CONFIG_DIR: cfg, HOME: join(cfg, 'home') } });
      api.script(plainReply(`Answer to ${words}.`));
      await claude.submit(words);
      await claude.waitForScreen(new RegExp(`Answer to ${words}`), 60_000);
    }

    await using state = await tempDir('collie-state-');
    const none: string[] = [];
    await using bridge = await startBridge({
      ...testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist, configDir: config, env: { ...process.env, TMUX_TMPDIR: tmux.tmpDir } }),
      sessionRoots: { claude: [cfg], codex: none, gemini: none, opencode: none, pi: none },
    });
    await untilPane(bridge.hub, 'the home pane', () => true, 30_000);

    await using browser = await launchChromium();
    await using context = await phoneContext(browser, { baseURL: bridge.url });
    await context.addCookies([(await testDevice(state.path)).cookie(bridge.url)]);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const problems: string[] = [];
    page.on('pageerror', (error) => void problems.push(error.message));

    await page.goto('/');
    await page.locator('.conn-live').waitFor();
    await page.getByRole('link', { name: 'Sessions', exact: true }).click();
    const rows = page.getByRole('list', { name: 'Sessions' }).locator('.session-row');
    await expect.poll(() => rows.locator('.new-choice-name').allTextContents(), { timeout: 30_000 }).toEqual(['write the release notes', 'remember the word heron']);
    await rows.first().locator('.new-choice-meta', { hasText: /^Claude Code · docs#main · / }).waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeProblems(page), scheme).toEqual([]);
    }
    await shot(page, 'sessions-list');
    await page.getByRole('searchbox', { name: 'Search sessions' }).fill('heron');
    await expect.poll(() => rows.locator('.new-choice-name').allTextContents()).toEqual(['remember the word heron']);
    await shot(page, 'sessions-search');

    await rows.first().locator('a.new-choice-main').click();
    await page.getByRole('heading', { name: 'remember the word heron' }).waitFor();
    await shot(page, 'session-read');
    await page.getByText('Answer to remember the word heron.').waitFor();
    await page.getByRole('button', { name: 'Resume in a new pane' }).click();
    await expect.poll(() => page.evaluate(() => window.location.hash), { timeout: 30_000 }).toMatch(/^#\/pane\//);
    const id = decodeURIComponent((await page.evaluate(() => window.location.hash)).replace('#/pane/', ''));
    await untilPane(bridge.hub, 'the resumed Claude pane idle in its folder', (p) => p.id === id && p.cwd === a && p.harness === 'claude' && p.state === 'idle', 60_000);
    await page.locator('#pane-title').waitFor();
    await shot(page, 'session-resumed-pane');

    api.script(plainReply('The word was heron.'));
    const box = page.getByLabel('Text to send to the pane');
    await box.fill('what was the word?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const request = await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'what was the word?', 120_000);
    const body = JSON.stringify(request.body);
    expect(body).toContain('remember the word heron');
    expect(body).toContain('Answer to remember the word heron.');
    expect(problems).toEqual([]);
    await tmux.tmux('kill-pane', '-t', id.slice(id.indexOf(':') + 1));
  }, 400_000);
});
