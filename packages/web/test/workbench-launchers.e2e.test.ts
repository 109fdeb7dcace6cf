import { readFile, realpath, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { LaunchersFile } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { axeProblems, untilPane } from './e2e-setup';
import { deskPhone, shot } from './phone-rig';

const run = promisify(execFile);

/**
 * Issue 16, New: a launcher saved from the phone (what runs, its flags, the folder) lands in
 * `<config>/launchers.json`, starts at once, and is listed first with its folder chosen the next
 * time the New page opens (real tmux, a real bridge, Chromium at 390×844).
 */
describe('saving a launcher from the phone', () => {
  it('saves the shell with a flag and a folder as a launcher, starts it, and offers it first next time', async () => {
    let repo = '';
    let roots = '';
    await using rig = await deskPhone('collie-launchers-e2e-', {
      prepare: async (work) => {
        roots = join(await realpath(work.path), 'code');
        repo = join(roots, 'shop');
        await mkdir(repo, { recursive: true });
        await run('git', ['init', '-q', '-b', 'main', repo]);
        // The flag: a script in the folder the shell runs, leaving a file behind, then waiting.
        await writeFile(join(repo, 'hello.sh'), 'printf started > launched.txt\nexec cat\n');
      },
      env: () => ({ COLLIE_ROOTS: roots, SHELL: '/bin/sh' }),
      phone: { timeout: 20_000, console: true },
    });
    const { bridge, config, page } = rig;
    const { problems } = rig.phone;

    await page.goto('/#/new');
    const form = page.locator('.new-form');
    await form.waitFor({ timeout: 60_000 });
    await form.getByRole('radio', { name: /^shell shell/ }).check();
    await form.getByRole('textbox', { name: 'Flags' }).fill('hello.sh');
    await form.getByRole('radio', { name: new RegExp(`^shop ${repo.replace(/[/.]/g, '\\$&')}`) }).check();
    await form.getByRole('checkbox', { name: /Save as a launcher/ }).check();
    await form.getByRole('textbox', { name: 'Launcher name' }).fill('shop hello');
    await form.getByRole('button', { name: 'Start' }).scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeProblems(page), scheme).toEqual([]);
    }
    for (const b of await page.locator('.new-form button, .new-form input[type=text], .new-form input:not([type]), .new-choice, .new-check').all()) expect((await b.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    await shot(page, 'new-launcher-save');
    await form.getByRole('button', { name: 'Start' }).click();

    // Saved, then started: the phone goes to the new pane, which runs the flag in the folder.
    await expect.poll(() => page.evaluate(() => window.location.hash), { timeout: 30_000 }).toMatch(/^#\/pane\//);
    const id = decodeURIComponent((await page.evaluate(() => window.location.hash)).replace('#/pane/', ''));
    await untilPane(bridge.hub, 'the launched pane in the folder', (p) => p.id === id && p.cwd === repo, 30_000);
    await expect.poll(() => readFile(join(repo, 'launched.txt'), 'utf8').catch(() => ''), { timeout: 30_000 }).toBe('started');
    expect(LaunchersFile.parse(JSON.parse(await readFile(join(config, 'launchers.json'), 'utf8')))).toEqual({ launchers: [{ name: 'shop hello', command: ['/bin/sh', 'hello.sh'], folder: repo }] });

    // Next time: listed first, with what it runs and where, its folder already chosen.
    await page.goto('/#/');
    await page.goto('/#/new');
    await form.waitFor({ timeout: 60_000 });
    await expect.poll(() => form.locator('.new-choice-name').first().textContent()).toBe('shop hello');
    await form.locator('.new-choice-meta', { hasText: /^saved launcher · sh hello\.sh · in shop$/ }).waitFor();
    expect(await form.getByRole('radio', { name: /^shop hello/ }).isChecked()).toBe(true);
    expect(await form.getByRole('radio', { name: new RegExp(`^shop ${repo.replace(/[/.]/g, '\\$&')}`) }).isChecked()).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'new-launcher-listed-first');
    expect(problems).toEqual([]);
  }, 180_000);
});
