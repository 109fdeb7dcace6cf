import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { artifactPath, claudeOffline, plainReply, startClaude, startMessagesApi } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { axeProblems, untilPane } from './e2e-setup';
import { deskPhone } from './phone-rig';

describe('New pane: Resume a session', () => {
  it('lists the chosen folder’s past session and resumes it with its conversation', async () => {
    await using api = await startMessagesApi();
    let roots = '';
    let folder = '';
    let cfg = '';
    const none: string[] = [];
    await using rig = await deskPhone('collie-sessions-new-e2e-', {
      prepare: async (work) => {
        roots = join(await realpath(work.path), 'code');
        folder = join(roots, 'shop');
        await mkdir(folder, { recursive: true });
        await promisify(execFile)('git', ['init', '-q', '-b', 'main', folder]);
      },
      before: async ({ work, config, tmux }) => {
        cfg = join(work.path, 'claude');
        const env = await claudeOffline(cfg, config, api, [folder]);
        await using claude = await startClaude(tmux, api, { cwd: folder, env });
        api.script(plainReply('Answer about the heron.'));
        await claude.submit('remember the word heron');
        await claude.waitForScreen(/Answer about the heron/, 60_000);
      },
      env: () => ({ COLLIE_ROOTS: roots }),
      bridge: () => ({ sessionRoots: { claude: [cfg], codex: none, gemini: none, opencode: none, pi: none } }),
      phone: { timeout: 20_000 },
    });
    const { tmux, bridge, page } = rig;
    const { problems } = rig.phone;

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
