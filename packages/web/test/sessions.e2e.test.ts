import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { claudeOffline, plainReply, startClaude, startMessagesApi } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { axeProblems, untilPane } from './e2e-setup';
import { deskPhone, shot } from './phone-rig';

/**
 * Issue 30: on a phone-sized Chromium, two past Claude Code sessions (the real CLI against the
 * scripted Messages API, in two folders, their panes closed) are listed on the Sessions page,
 * one is read in the pane Chat's view and resumed in a new pane; a message sent from the phone
 * reaches the model with the earlier turns.
 */
describe('the Sessions page', () => {
  it('lists two closed Claude Code sessions, reads one, resumes it and continues the conversation from the phone', async () => {
    await using api = await startMessagesApi();
    let a = '';
    let b = '';
    let cfg = '';
    const none: string[] = [];
    await using rig = await deskPhone('collie-sessions-e2e-', {
      prepare: async (work) => {
        const root = await realpath(work.path);
        [a, b] = [join(root, 'shop'), join(root, 'docs')];
        for (const f of [a, b]) {
          await mkdir(f);
          await promisify(execFile)('git', ['init', '-q', '-b', 'main', f]);
        }
      },
      before: async ({ work, config, tmux }) => {
        cfg = join(work.path, 'claude');
        const env = await claudeOffline(cfg, config, api, [a, b]);
        for (const [folder, words] of [
          [a, 'remember the word heron'],
          [b, 'write the release notes'],
        ] as const) {
          await using claude = await startClaude(tmux, api, { cwd: folder, env });
          api.script(plainReply(`Answer to ${words}.`));
          await claude.submit(words);
          await claude.waitForScreen(new RegExp(`Answer to ${words}`), 60_000);
        }
      },
      bridge: () => ({ sessionRoots: { claude: [cfg], codex: none, gemini: none, opencode: none, pi: none } }),
      phone: { timeout: 20_000 },
    });
    const { tmux, bridge, page } = rig;
    const { problems } = rig.phone;

    await rig.phone.open('/');
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
