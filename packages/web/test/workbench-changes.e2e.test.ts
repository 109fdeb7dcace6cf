import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { plainReply } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { openPaneMenu } from './e2e-setup';
import { claudePhone, shot } from './phone-rig';

const run = promisify(execFile);
const git = (cwd: string, ...args: string[]) => run('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], { cwd });

/**
 * The Changes page on a phone-sized Chromium: a real git repository the real Claude Code TUI
 * works in (offline, scripted Messages API), the diff folded per file, two comments made by
 * tapping lines, and "Send to agent" delivering them as one message.
 */
describe('reviewing an agent\'s changes from the phone', () => {
  it('shows the diff, takes two comments and sends them to the agent as one message', async () => {
    await using rig = await claudePhone('collie-changes-e2e-', {
      claude: async (work) => {
        const repo = join(work.path, 'shop');
        await mkdir(join(repo, 'src'), { recursive: true });
        await git(work.path, 'init', '-q', '-b', 'fix-login', repo);
        await writeFile(join(repo, 'src', 'login.ts'), 'export function login(user: string) {\n  let ok = check(user);\n  return ok;\n}\n');
        await git(repo, 'add', '-A');
        await git(repo, 'commit', '-q', '-m', 'first');
        await writeFile(join(repo, 'src', 'login.ts'), 'export function login(user: string) {\n  const ok = check(user.trim());\n  log(user);\n  return ok;\n}\n');
        await writeFile(join(repo, 'NOTES.md'), 'try again\n');
        return { width: 100, height: 40, cwd: repo };
      },
      phone: { timeout: 20_000, scheme: 'dark', console: true },
    });
    const { api, id, page } = rig;
    const { problems } = rig.phone;
    const repo = join(rig.work.path, 'shop');

    await rig.phone.openPane(id);
    await openPaneMenu(page);
    await page.getByRole('link', { name: 'Changes' }).click();
    await page.locator('.changes-facts', { hasText: 'shop on fix-login · 2 files' }).waitFor();
    const file = page.locator('.diff-file', { hasText: 'src/login.ts' });
    await file.locator('.diff-counts', { hasText: '+2 −1' }).waitFor();
    await page.locator('.diff-file', { hasText: 'NOTES.md' }).locator('.diff-counts', { hasText: 'new, not in git' }).waitFor();
    await shot(page, 'changes-folded');
    // The agent (or anyone) changes a file: the page shows it without a tap (the bridge's watcher).
    // Written again until it shows: the page's wait may reach the bridge after the first write.
    const three = page.locator('.changes-facts', { hasText: 'shop on fix-login · 3 files' });
    for (let i = 0; i < 60 && !(await three.isVisible()); i++) {
      await writeFile(join(repo, 'src', 'session.ts'), `export const ttl = ${i};\n`);
      await three.waitFor({ timeout: 500 }).catch(() => undefined);
    }
    await three.waitFor();

    await file.locator('summary').click();
    const comment = async (lineText: string, text: string) => {
      await file.locator('.diff-line', { hasText: lineText }).click();
      await page.getByLabel('Comment on this line').fill(text);
      await page.getByRole('button', { name: 'Save comment' }).click();
      await file.locator('.diff-comment', { hasText: text }).waitFor();
    };
    await comment('log(user);', 'do not log the user name');
    await comment('const ok = check(user.trim());', 'why trim here?');
    await page.locator('.changes-count', { hasText: '2 comments' }).waitFor();
    await shot(page, 'changes-two-comments');

    api.script(plainReply('I will fix both.'));
    await page.getByRole('button', { name: 'Send to agent' }).click();
    await expect.poll(() => page.locator('.composer-status .status-words').textContent(), { timeout: 60_000 }).toBe('typed into the pane');
    const req = await api.waitForRequest((q) => q.kind === 'main' && q.prompt.includes('Review comments on your changes (2):'), 60_000);
    // One message, both comments, each with its file and line.
    expect(req.prompt).toContain('src/login.ts:2\n> const ok = check(user.trim());\nwhy trim here?');
    expect(req.prompt).toContain('src/login.ts:3\n> log(user);\ndo not log the user name');
    expect(api.requests.filter((q) => q.kind === 'main' && q.prompt.includes('Review comments')).length).toBe(1);
    await page.locator('.changes-count', { hasText: 'Tap a line to comment.' }).waitFor();
    await shot(page, 'changes-sent');
    expect(problems).toEqual([]);
  }, 240_000);
});
