import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startBridge } from '@collie/bridge';
import { artifactPath, claudeLauncher, FAKE_API_KEY, launchChromium, phoneContext, plainReply, startClaude, startMessagesApi, startTmux, tempDir, testBridgeOptions, testDevice, writeClaudeConfig } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { axeProblems, buildWeb, untilPane } from './e2e-setup';

/**
 * Issue 30: New pane offers "Resume a session" for the chosen folder. On a phone-sized Chromium,
 * a past Claude Code session (the real CLI against the scripted Messages API, its pane closed)
 * is listed under its folder on New; tapping it resumes it in a new pane, and a message sent
 * from the phone reaches the model with the earlier turns.
 */
describe('New pane: Resume a session', () => {
  it('lists the chosen folder’s past session and resumes it with its conversation', async () => {
    await using work = await tempDir('collie-sessions-new-e2e-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    const roots = join(await realpath(work.path), 'code');
    const folder = join(roots, 'shop');
    await mkdir(folder, { recursive: true });
    await promisify(execFile)('git', ['init', '-q', '-b', 'main', folder]);
    await using api = await startMessagesApi();
    const cfg = join(work.path, 'claude');
    await mkdir(join(cfg, 'home'), { recursive: true, mode: 0o700 });
    await writeClaudeConfig(cfg, { cwd: folder, apiKey: FAKE_API_KEY });
    const config = join(work.path, 'config');
    await mkdir(config, { mode: 0o700 });
    await writeFile(join(config, 'launchers.json'), JSON.stringify({ launchers: [{ name: 'claude offline', command: claudeLauncher(api, cfg) }] }));

    await using tmux = await startTmux();
    await tmux.newSession('home', { cmd: 'cat', cwd: work.path, width: 100, height: 40 });
    {
      await using claude = await startClaude(tmux, api, { cwd: folder, env: { CLAUDE_CONFIG_DIR: cfg, HOME: join(cfg, 'home') } });
      api.script(plainReply('Answer about the heron.'));
      await claude.submit('remember the word heron');
      await claude.waitForScreen(/Answer about the heron/, 60_000);
    }

    await using state = await tempDir('collie-state-');
    const none: string[] = [];
    await using bridge = await startBridge({
      ...testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist, configDir: config, env: { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_ROOTS: roots } }),
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

    await page.goto('/#/new');
    await page.locator(`input[name="folder"][value="${folder}"]`).check();
    const rows = page.getByRole('list', { name: 'Sessions in this folder' }).getByRole('button');
    await expect.poll(() => rows.locator('.new-choice-name').allTextContents(), { timeout: 30_000 }).toEqual(['remember the word heron']);
    await expect(rows.first().locator('.new-choice-meta').textContent()).resolves.toMatch(/^Claude Code · /);
    expect(await axeProblems(page)).toEqual([]);
    await page.screenshot({ path: artifactPath('web/new-resume-session.png') });

    await rows.first().click();
    await expect.poll(() => page.evaluate(() => window.location.hash), { timeout: 30_000 }).toMatch(/^#\/pane\//);
    const id = decodeURIComponent((await page.evaluate(() => window.location.hash)).replace('#/pane/', ''));
    await untilPane(bridge.hub, 'the resumed Claude pane idle in its folder', (p) => p.id === id && p.cwd === folder && p.harness === 'claude' && p.state === 'idle', 60_000);

    api.script(plainReply('The word was heron.'));
    await page.getByLabel('Text to send to the pane').fill('what was the word?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const request = await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'what was the word?', 120_000);
    const body = JSON.stringify(request.body);
    expect(body).toContain('remember the word heron');
    expect(body).toContain('Answer about the heron.');
    expect(problems).toEqual([]);
    await tmux.tmux('kill-pane', '-t', id.slice(id.indexOf(':') + 1));
  }, 400_000);
});
