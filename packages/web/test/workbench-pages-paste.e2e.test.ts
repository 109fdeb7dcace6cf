import { execFile } from 'node:child_process';
import { realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startBridge } from '@collie/bridge';
import { artifactPath, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeProblems, untilPane } from './e2e-setup';
import { openPhone, webWork } from './phone-rig';

const run = promisify(execFile);
const git = (cwd: string, ...args: string[]) => run('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], { cwd });
const shot = (page: Page, name: string) => page.screenshot({ path: artifactPath(`web/${name}.png`) });
/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/**
 * Issue 16 on a phone-sized Chromium, a real git repository and a pane in it (cat): a 5 MB diff
 * paged (its huge file cut and said, Previous and Next), what git's index holds said; and a
 * screenshot pasted into the composer (as on a desktop) attached and its path typed.
 */
describe('the diff paged and a pasted screenshot, on the phone', () => {
  it('pages a 5 MB diff, says staged files, and attaches a pasted image', async () => {
    await using work = await webWork('collie-pages-e2e-');
    const { dist } = work;
    const repo = join(await realpath(work.path), 'shop');
    await git(work.path, 'init', '-q', '-b', 'main', repo);
    await writeFile(join(repo, 'big.txt'), 'x\n');
    await writeFile(join(repo, 'login.ts'), 'export const ok = false;\n');
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'first');
    // 120,000 new lines (about 5 MB of diff), a staged edit.
    await writeFile(join(repo, 'big.txt'), Array.from({ length: 120_000 }, (_, i) => `line ${i} ${'y'.repeat(32)}`).join('\n'));
    await writeFile(join(repo, 'login.ts'), 'export const ok = true;\n');
    await git(repo, 'add', 'login.ts');

    await using tmux = await startTmux();
    const tmuxPane = await tmux.newSession('pages', { cmd: 'cat', cwd: repo, width: 100, height: 30 });
    await using state = await tempDir('collie-state-');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    const id = `${tmux.name}:${tmuxPane}`;
    await untilPane(bridge.hub, 'the pane in the repository', (p) => p.id === id && p.cwd === repo, 30_000);

    await using phone = await openPhone(bridge, state.path, { timeout: 30_000, console: true });
    const { page, problems } = phone;

    await page.goto(`/#/pane/${encodeURIComponent(id)}/changes`);
    const pages = page.getByRole('navigation', { name: 'Pages of the diff' });
    await pages.getByText('Page 1 of 2').waitFor();
    // Said at the top too: the way to the next page is below 2,000 lines.
    await page.locator('.changes-facts', { hasText: 'shop on main · 2\u00a0files · page\u00a01\u00a0of\u00a02' }).waitFor();
    await shot(page, 'changes-paged-top');
    const big = page.locator('.diff-file', { hasText: 'big.txt' });
    await big.locator('.diff-counts', { hasText: '+120000 −1' }).waitFor();
    await big.locator('summary').click();
    await big.locator('.diff-note', { hasText: '118,001 more lines of this file are not shown (a huge diff).' }).waitFor();
    expect(await big.locator('.diff-line').count()).toBeLessThanOrEqual(2000);
    for (const b of await page.locator('.changes-facts button, .changes-pages button').all()) expect((await b.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    await pages.scrollIntoViewIfNeeded();
    await shot(page, 'changes-paged-cut');
    await pages.getByRole('button', { name: 'Next' }).click();
    await pages.getByText('Page 2 of 2').waitFor();
    await page.locator('.diff-file', { hasText: 'login.ts' }).locator('.diff-counts', { hasText: '+1 −1 · staged' }).waitFor();
    expect(await page.locator('.diff-file', { hasText: 'big.txt' }).count()).toBe(0);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeProblems(page), scheme).toEqual([]);
    }
    await shot(page, 'changes-page-two');

    // A screenshot pasted into the composer: attached, not typed; its path typed on Send.
    await page.goto(`/#/pane/${encodeURIComponent(id)}`);
    const box = page.getByLabel('Text to send to the pane');
    await box.waitFor();
    await box.evaluate((el, b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, PNG);
    await page.locator('.attachment-ready', { hasText: 'image.png' }).waitFor();
    expect(await box.inputValue()).toBe('');
    await box.fill('pasted');
    await shot(page, 'attach-pasted');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => page.locator('.composer-status .status-words').textContent(), { timeout: 60_000 }).toBe('typed into the pane');
    // A shell has no attachment syntax: the text, then the stored file's path inside <state>/uploads.
    const uploads = join(await realpath(state.path), 'uploads');
    const screen = await tmux.waitForScreen(tmuxPane, (s) => s.replaceAll('\n', '').split(`pasted ${uploads}/u_`).length >= 3, 30_000);
    expect(screen.replaceAll('\n', '')).toMatch(new RegExp(`pasted ${uploads.replace(/[/.]/g, '\\$&')}/u_[0-9a-f]{16}-image\\.png`));
    expect(problems).toEqual([]);
  }, 180_000);
});
