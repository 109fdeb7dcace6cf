import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startBridge } from '@collie/bridge';
import { artifactPath, claudeOffline, startMessagesApi, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import { claudesTold } from '../../bridge/test/sessions-kit';
import { describe, expect, it } from 'vitest';
import { axeProblems, untilPane } from './e2e-setup';
import { openPhone, webWork } from './phone-rig';

/**
 * Issue 30, after a reboot: two live Claude Code panes, the bridge stopped and their tmux server
 * killed under them; the bridge started again, the phone's dashboard says both were running and
 * Resume all opens each again in a window named as before.
 */
describe('sessions running when the machine stopped, on the dashboard', () => {
  it('are both resumed with one tap, each in a window named as before', async () => {
    await using work = await webWork('collie-reboot-e2e-');
    const { dist } = work;
    const [a, b] = [join(work.path, 'shop'), join(work.path, 'docs')];
    for (const f of [a, b]) {
      await mkdir(f);
      await promisify(execFile)('git', ['init', '-q', '-b', 'main', f]);
    }
    await using api = await startMessagesApi();
    const cfg = join(work.path, 'claude');
    const config = join(work.path, 'config');
    const env = await claudeOffline(cfg, config, api, [a, b]);
    await using tmux = await startTmux();
    await tmux.newSession('home', { cmd: 'cat', cwd: work.path, width: 100, height: 40 });
    await using state = await tempDir('collie-state-');
    const none: string[] = [];
    const options = { ...testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist, configDir: config, env: { ...process.env, TMUX_TMPDIR: tmux.tmpDir } }), sessionRoots: { claude: [cfg], codex: none, gemini: none, opencode: none, pi: none } };
    const socket = join(tmux.tmpDir, `tmux-${process.getuid?.() ?? 0}`, 'default');
    const windows = new Map<string, string>();

    const [one, two] = await claudesTold(tmux, api, env, [[a, 'heron'], [b, 'otter']]);
    try {
      await using first = await startBridge(options);
      const file = join(state.path, 'running-sessions.json');
      await expect.poll(async () => ((JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as { sessions?: unknown[] }).sessions ?? []).length, { timeout: 30_000 }).toBe(2);
      for (const p of first.hub.panes.values()) if (p.harness === 'claude') windows.set(p.cwd ?? '', p.windowName);
    } finally {
      // The machine stops: the bridge (above), then the tmux server under both agents.
      await tmux.tmux('kill-server');
      await one.kill().catch(() => undefined);
      await two.kill().catch(() => undefined);
    }

    await using bridge = await startBridge(options);
    await using phone = await openPhone(bridge, state.path, { timeout: 20_000 });
    const { page } = phone;
    try {
      await page.goto('/');
      await page.locator('.conn-live').waitFor();
      const panel = page.getByRole('region', { name: 'Sessions that were running' });
      await panel.getByText('2 sessions were running when this machine stopped').waitFor();
      expect((await panel.locator('.new-choice-name').allTextContents()).sort()).toEqual(['remember the word heron', 'remember the word otter']);
      expect(await axeProblems(page)).toEqual([]);
      await page.screenshot({ path: artifactPath('web/sessions-stopped-dashboard.png') });
      await panel.getByRole('button', { name: 'Resume all' }).click();
      for (const folder of [a, b]) {
        await untilPane(bridge.hub, `${folder} resumed`, (p) => p.harness === 'claude' && p.cwd === folder && p.state === 'idle' && p.windowName === windows.get(folder), 90_000);
      }
      await panel.waitFor({ state: 'detached' });
      await page.screenshot({ path: artifactPath('web/sessions-stopped-resumed.png') });
    } finally {
      await promisify(execFile)('tmux', ['-S', socket, 'kill-server']).catch(() => undefined);
    }
  }, 400_000);
});
