import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { claudeOffline, plainReply, startMessagesApi } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { axeProblems, untilPane } from './e2e-setup';
import { deskPhone, shot } from './phone-rig';

const run = promisify(execFile);
const git = (cwd: string, ...args: string[]) => run('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], { cwd });

/**
 * Issue 16, New: on a phone-sized Chromium, a saved launcher (the real Claude Code TUI against
 * the scripted Messages API) started in a new git worktree with a first message; the phone goes
 * to the new pane and the model receives the first message once, through the send protocol.
 * Then, the pane closed, the worktree holding an unpushed commit is removed from the phone only
 * after the second tap.
 */
describe('starting an agent from the phone', () => {
  it('starts Claude Code in a new worktree with a first message, then removes the worktree only when confirmed', async () => {
    let roots = '';
    let repo = '';
    let worktree = '';
    await using api = await startMessagesApi();
    // Claude Code's own config, its folder trust answered for the worktree it will run in.
    const claudeConfig = await mkdtemp(join(tmpdir(), 'collie-new-claude-'));
    // The first pane's folder is the test's own: never this checkout, whose worktrees the page would list.
    await using rig = await deskPhone('collie-new-e2e-', {
      prepare: async (work, config) => {
        roots = join(await realpath(work.path), 'code');
        repo = join(roots, 'shop');
        await mkdir(repo, { recursive: true });
        await git(roots, 'init', '-q', '-b', 'main', repo);
        await writeFile(join(repo, 'login.ts'), 'export const ok = false;\n');
        await git(repo, 'add', '-A');
        await git(repo, 'commit', '-q', '-m', 'first');
        worktree = join(roots, 'shop-worktrees', 'fix-login');
        await claudeOffline(claudeConfig, config, api, [worktree]);
      },
      env: () => ({ COLLIE_ROOTS: roots }),
      phone: { timeout: 20_000, console: true, ignore: /status of 409/ },
    });
    const { tmux, bridge, page } = rig;
    const { problems } = rig.phone;

    try {
      await page.goto('/');
      await page.locator('.conn-live').waitFor();
      expect((await page.getByRole('link', { name: 'New pane' }).boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
      await shot(page, 'new-dashboard-link');
      await page.getByRole('link', { name: 'New pane' }).click();
      const form = page.locator('.new-form');
      // The first read asks each agent on PATH for its --version (5 s at most each, side by side).
      await form.waitFor({ timeout: 60_000 });
      // The saved launcher first, the shell last; the repository under COLLIE_ROOTS offered.
      await expect.poll(() => form.locator('.new-choice-name').first().textContent()).toBe('claude offline');
      await form.locator('.new-choice-meta', { hasText: /^saved launcher · claude$/ }).waitFor();
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        expect(await axeProblems(page), scheme).toEqual([]);
      }
      await form.getByRole('radio', { name: /claude offline/ }).check();
      await form.getByRole('radio', { name: new RegExp(`^shop ${repo.replace(/[/.]/g, '\\$&')}`) }).check();
      await form.getByRole('checkbox', { name: 'In a new git worktree, on a new branch' }).check();
      await form.getByRole('textbox', { name: 'Branch' }).fill('fix-login');
      await form.locator('.new-note', { hasText: `Made at ${worktree}` }).waitFor();
      await form.getByLabel('tmux session').selectOption({ label: 'home' });
      await form.getByLabel('First message').fill('Please fix the login check');
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, 'new-form-top');
      await form.getByRole('button', { name: 'Start' }).scrollIntoViewIfNeeded();
      await shot(page, 'new-form');
      for (const b of await page.locator('.new-form button, .new-form a, .new-choice, .new-check').all()) expect((await b.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);

      api.script(plainReply('I will fix the login check.'));
      await form.getByRole('button', { name: 'Start' }).click();
      // The phone goes to the new pane: Claude Code, in the worktree, on its new branch.
      await expect.poll(() => page.evaluate(() => window.location.hash), { timeout: 30_000 }).toMatch(/^#\/pane\//);
      const id = decodeURIComponent((await page.evaluate(() => window.location.hash)).replace('#/pane/', ''));
      const pane = await untilPane(bridge.hub, 'the new Claude pane in the worktree', (p) => p.id === id && p.cwd === worktree && p.harness === 'claude', 60_000);
      expect(pane.windowName.length).toBeGreaterThan(0);
      expect((await git(worktree, 'rev-parse', '--abbrev-ref', 'HEAD')).stdout.trim()).toBe('fix-login');
      // The first message reaches the model once the agent is idle, once.
      await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'Please fix the login check', 120_000);
      await untilPane(bridge.hub, 'the turn done', (p) => p.id === id && (p.state === 'idle' || p.state === 'done'), 60_000);
      expect(api.requests.filter((q) => q.kind === 'main' && q.prompt === 'Please fix the login check')).toHaveLength(1);
      await page.locator('#pane-title').waitFor();
      await shot(page, 'new-pane-arrived');

      // The agent's work: one commit on the branch, a pane that is closed.
      await writeFile(join(worktree, 'login.ts'), 'export const ok = true;\n');
      await git(worktree, 'commit', '-q', '-am', 'fix the login check');
      await tmux.tmux('kill-pane', '-t', id.slice(id.indexOf(':') + 1));
      await expect.poll(() => bridge.hub.panes.has(id), { timeout: 30_000 }).toBe(false);

      await page.goto('/#/worktrees');
      const row = page.locator('.worktree', { hasText: 'fix-login' });
      await row.locator('.worktree-state', { hasText: '1 unpushed commit' }).waitFor();
      await row.getByRole('button', { name: 'Remove' }).click();
      const panel = row.getByRole('alertdialog', { name: 'Remove the worktree' });
      await panel.locator('.workbench-question', { hasText: `Remove the folder ${worktree} and the branch fix-login?` }).waitFor();
      await panel.getByRole('button', { name: 'Remove', exact: true }).click();
      // Refused by the bridge while it holds the commit: the phone says why and asks again.
      await panel.locator('.workbench-warning', { hasText: "'fix-login' holds 1 unpushed commit, which removing it would lose" }).waitFor();
      expect(existsSync(worktree)).toBe(true);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        expect(await axeProblems(page), scheme).toEqual([]);
      }
      await shot(page, 'new-worktree-remove-refused');
      await panel.getByRole('button', { name: 'Remove anyway' }).click();
      await page.locator('.new-note', { hasText: `Removed ${worktree} and the branch fix-login.` }).waitFor();
      expect(existsSync(worktree)).toBe(false);
      expect((await git(repo, 'branch', '--list', 'fix-login')).stdout.trim()).toBe('');
      await shot(page, 'new-worktree-removed');
      expect(problems).toEqual([]);
    } finally {
      await rm(claudeConfig, { recursive: true, force: true });
    }
  }, 300_000);
});
