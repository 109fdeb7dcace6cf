import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startBridge } from '@collie/bridge';
import { artifactPath, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeProblems, untilPane, openPaneMenu } from './e2e-setup';
import { openPhone, webWork } from './phone-rig';

const run = promisify(execFile);
const shot = (page: Page, name: string) => page.screenshot({ path: artifactPath(`web/${name}.png`) });
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * Issue 16, Files: a pane's repository browsed read-only on a phone-sized Chromium: it opens
 * where the pane runs, folders first, git-ignored files hidden until asked, a text file shown
 * with line numbers as text (markup in it stays text), an image inline, a binary file and a
 * symlink out of the repository only said.
 */
describe('browsing a pane\'s files from the phone', () => {
  it('lists folders, opens text and images, says binary files and refuses a link out of the repository', async () => {
    await using work = await webWork('collie-files-e2e-');
    const { dist } = work;
    const repo = join(work.path, 'shop');
    await mkdir(join(repo, 'src'), { recursive: true });
    await mkdir(join(repo, 'dist'));
    await mkdir(join(work.path, 'secret'));
    await run('git', ['init', '-q', '-b', 'main', repo]);
    await writeFile(join(repo, '.gitignore'), 'dist/\n*.log\n');
    await writeFile(join(repo, 'src', 'login.ts'), '// check the user\nexport function login(user: string) {\n  const html = "<img src=x onerror=alert(1)>";\n  return user.length > 0;\n}\n');
    await writeFile(join(repo, 'README.md'), '# Shop\n');
    await writeFile(join(repo, 'debug.log'), 'noise\n');
    await writeFile(join(repo, 'logo.png'), PNG_1X1);
    await writeFile(join(repo, 'data.bin'), Buffer.from([0, 1, 2, 0, 255]));
    await writeFile(join(work.path, 'secret', 'key.txt'), 'do not show\n');
    await symlink(join(work.path, 'secret'), join(repo, 'out'));

    await using tmux = await startTmux();
    const tmuxPane = await tmux.newSession('files', { cmd: 'cat', cwd: join(repo, 'src') });
    await using state = await tempDir('collie-state-');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    const id = `${tmux.name}:${tmuxPane}`;
    await untilPane(bridge.hub, 'the pane in src', (p) => p.id === id && p.cwd === join(repo, 'src'), 30_000);

    await using phone = await openPhone(bridge, state.path, { timeout: 20_000, scheme: 'dark', console: true, ignore: /status of (403|400)/ });
    const { page, problems } = phone;
    const dialogs: string[] = [];
    page.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss()));

    await phone.openPane(id);
    await openPaneMenu(page);
    await page.getByRole('link', { name: 'Files', exact: true }).click();
    // It opens where the pane runs: src, below the repository's top.
    await page.locator('.files-row', { hasText: 'login.ts' }).waitFor();
    await expect.poll(() => page.locator('.files-crumbs').textContent()).toBe('Pane / shop / src');
    await page.locator('.files-row', { hasText: '..' }).click();
    const rows = page.locator('.files-list .files-name');
    await page.locator('.files-row', { hasText: 'README.md' }).waitFor();
    expect(await rows.allTextContents()).toEqual(['src/', '.gitignore', 'README.md', 'data.bin', 'logo.png', 'out']);
    await page.getByRole('checkbox', { name: 'Show git-ignored files (2 hidden)' }).waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeProblems(page), scheme).toEqual([]);
    }
    await shot(page, 'files-folder');
    for (const b of await page.locator('.files-row, .new-check, .files-crumbs a').all()) expect((await b.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    await page.getByRole('checkbox', { name: /Show git-ignored files/ }).check();
    await page.locator('.files-ignored', { hasText: 'debug.log' }).waitFor();
    expect(await rows.allTextContents()).toEqual(['dist/', 'src/', '.gitignore', 'README.md', 'data.bin', 'debug.log', 'logo.png', 'out']);
    await shot(page, 'files-ignored-shown');

    await page.locator('.files-row', { hasText: 'src/' }).click();
    await page.locator('.files-row', { hasText: 'login.ts' }).click();
    const text = page.getByRole('region', { name: 'File contents' });
    await text.waitFor();
    expect(await page.locator('.files-line').count()).toBe(5);
    await expect.poll(() => page.locator('.files-line').nth(2).textContent()).toBe('3  const html = "<img src=x onerror=alert(1)>";');
    expect(await text.locator('img').count()).toBe(0);
    await page.locator('.files-line .tok-kw', { hasText: 'function' }).waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeProblems(page), scheme).toEqual([]);
    }
    await shot(page, 'files-text');

    await page.goto(`/#/pane/${encodeURIComponent(id)}/file/logo.png`);
    await expect.poll(() => page.locator('.files-image').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    await page.goto(`/#/pane/${encodeURIComponent(id)}/file/data.bin`);
    await page.locator('.notice-title', { hasText: 'A binary file: not shown.' }).waitFor();
    await shot(page, 'files-binary');
    await page.goto(`/#/pane/${encodeURIComponent(id)}/file/${encodeURIComponent('out/key.txt')}`);
    await page.locator('.notice-body', { hasText: "'out/key.txt' leads outside the pane's repository or folder" }).waitFor();
    expect(await page.locator('main').textContent()).not.toContain('do not show');
    await shot(page, 'files-outside-refused');
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
  }, 180_000);
});
