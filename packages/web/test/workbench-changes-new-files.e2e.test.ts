import { execFile } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startBridge } from '@collie/bridge';
import { artifactPath, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { axeBoth, untilPane } from './e2e-setup';
import { openPhone, webWork } from './phone-rig';

const run = promisify(execFile);
const git = (cwd: string, ...args: string[]) => run('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], { cwd });

/**
 * Issue 27 (item 8): files an agent creates show in Changes with their contents, as added lines,
 * masked like every diff; a binary, a huge file and a link out of the repository say so in words.
 * A real repository, a pane in it, a real bridge, Chromium at 390×844.
 */
describe('new files in Changes', () => {
  it('shows an untracked file as added lines, masked; binary, huge and linked files in words', async () => {
    await using work = await webWork('collie-new-files-e2e-');
    const { dist } = work;
    const repo = join(work.path, 'shop');
    await mkdir(join(repo, 'src'), { recursive: true });
    await git(work.path, 'init', '-q', '-b', 'main', repo);
    await writeFile(join(repo, 'README.md'), '# shop\n');
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'first');
    const key = `sk-ant-${'a1B2'.repeat(8)}`;
    await writeFile(join(repo, 'src', 'cart.ts'), `export const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);\nexport const apiKey = '${key}';\n`);
    await writeFile(join(repo, 'logo.png'), Buffer.from('89504e470d0a1a0a0000000d49484452000000', 'hex'));
    await writeFile(join(repo, 'dump.log'), 'z'.repeat(3 * 1024 * 1024));
    await symlink('/etc/passwd', join(repo, 'escape'));

    await using tmux = await startTmux();
    const tmuxPane = await tmux.newSession('review', { cmd: 'cat', cwd: repo });
    await using state = await tempDir('collie-state-');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    const id = `${tmux.name}:${tmuxPane}`;
    await untilPane(bridge.hub, 'the pane', (p) => p.id === id && p.cwd === repo, 30_000);

    await using phone = await openPhone(bridge, state.path, { timeout: 20_000 });
    const { page } = phone;
    await page.goto(`/#/pane/${encodeURIComponent(id)}/changes`);
    await page.locator('.changes-facts', { hasText: 'shop on main · 4 files' }).waitFor();

    const cart = page.locator('.diff-file', { hasText: 'src/cart.ts' });
    await cart.locator('.diff-counts', { hasText: '+2' }).waitFor();
    await cart.locator('summary').click();
    const added = cart.locator('.diff-line-add');
    await expect.poll(() => added.count()).toBe(2);
    expect(await added.first().textContent()).toContain('export const total');
    // Masked like any other change: the key never reaches the phone.
    expect(await cart.textContent()).not.toContain(key);
    expect(await cart.textContent()).toContain('sk-ant-');

    const words = async (path: string) => {
      const file = page.locator('.diff-file', { hasText: path });
      await file.locator('summary').click();
      return (await file.locator('.diff-note').allTextContents()).join(' ');
    };
    expect(await words('logo.png')).toBe('A binary file: not shown.');
    expect(await words('dump.log')).toMatch(/^A new file too large to show here \(3\.0 MB\)/);
    // The link is shown as the link it is (its target's name), never the file it points to.
    const escape = page.locator('.diff-file', { hasText: 'escape' });
    await escape.locator('summary').click();
    expect(await escape.textContent()).not.toContain('root:x:0:0');
    await axeBoth(page, '.page-changes');
    await page.emulateMedia({ colorScheme: 'light' });
    await cart.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('web/changes-new-files.png') });
  }, 180_000);
});
