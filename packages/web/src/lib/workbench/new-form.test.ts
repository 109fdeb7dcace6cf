import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NewPaneRequest, SaveLauncherRequest, type NewOptions } from '@collie/protocol';
import { chooseLauncher, flagWords, initialForm, launcherWords, newRequest, worktreePreview } from './new-form';

const options: NewOptions = {
  folders: [
    { path: '/home/a/shop', repo: true, recent: true },
    { path: '/home/a/notes', repo: false, recent: false },
  ],
  launchers: [
    { name: 'claude fast', command: ['claude', '--model', 'haiku'], source: 'saved', version: null },
    { name: 'notes', command: ['sh'], folder: '/home/a/notes', source: 'saved', version: null },
    { name: 'shell', command: ['sh'], source: 'shell', version: null },
  ],
  sessions: [{ server: 'default', session: 'work' }],
  worktreeDir: null,
};

describe('the New form', () => {
  it('starts on the first launcher and folder, in a new session', () => {
    expect(initialForm(options)).toEqual({ launcher: 'claude fast', folder: '/home/a/shop', where: 'default\n', worktree: false, branch: '', message: '', flags: '', save: false, saveName: '' });
  });

  it('makes the request the bridge takes, a blank first message left out', () => {
    const r = newRequest({ ...initialForm(options), where: 'default\nwork', worktree: true, branch: 'fix/login', message: 'Fix the login' }, options, 'r1');
    expect(r).toEqual({ ok: true, save: null, body: { folder: '/home/a/shop', launcher: 'claude fast', server: 'default', session: 'work', worktree: 'fix/login', first_message: 'Fix the login', request_id: 'r1' } });
    const blank = newRequest({ ...initialForm(options), message: '  ' }, options, 'r2');
    expect(blank.ok && blank.body.first_message).toBe(null);
  });

  it('passes flags for one start, or saves them with the folder as a launcher that then starts', () => {
    const once = newRequest({ ...initialForm(options), flags: ' --model  opus ' }, options, 'r3');
    expect(once).toMatchObject({ ok: true, save: null, body: { launcher: 'claude fast', args: ['--model', 'opus'] } });
    const saved = newRequest({ ...initialForm(options), flags: '--resume', save: true, saveName: ' shop resume ' }, options, 'r4');
    expect(saved).toMatchObject({ ok: true, save: { name: 'shop resume', base: 'claude fast', args: ['--resume'], folder: '/home/a/shop' }, body: { launcher: 'shop resume' } });
    expect(saved.ok && 'args' in saved.body).toBe(false);
    expect(newRequest({ ...initialForm(options), save: true, saveName: 'claude' }, options, 'r')).toMatchObject({ ok: false, problem: expect.stringMatching(/built-in/) });
    expect(newRequest({ ...initialForm(options), save: true, saveName: 'a/b' }, options, 'r')).toMatchObject({ ok: false, problem: expect.stringMatching(/^A launcher name/) });
    expect(newRequest({ ...initialForm(options), flags: Array.from({ length: 21 }, () => 'x').join(' ') }, options, 'r')).toMatchObject({ ok: false });
  });

  it('a saved launcher with a folder picks that folder', () => {
    expect(initialForm({ ...options, launchers: options.launchers.slice(1) })).toMatchObject({ launcher: 'notes', folder: '/home/a/notes' });
    expect(chooseLauncher({ ...initialForm(options), worktree: true }, options, 'notes')).toMatchObject({ launcher: 'notes', folder: '/home/a/notes', worktree: false });
    expect(chooseLauncher(initialForm(options), options, 'shell')).toMatchObject({ launcher: 'shell', folder: '/home/a/shop' });
  });

  it('reads flags as words: no empty word, no white space in one, the words in order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^\S{1,8}$/u), { maxLength: 6 }), fc.stringMatching(/^[ \t\n]{1,3}$/), (words, gap) => {
        expect(flagWords(`${gap}${words.join(gap)}${gap}`)).toEqual(words);
      }),
    );
    fc.assert(fc.property(fc.string(), (s) => flagWords(s).every((w) => w !== '' && !/\s/u.test(w))));
  });

  it('says what is wrong: a worktree outside a repository, a bad branch, nothing chosen', () => {
    expect(newRequest({ ...initialForm(options), folder: '/home/a/notes', worktree: true, branch: 'x' }, options, 'r')).toEqual({ ok: false, problem: 'A worktree needs a folder that is a git repository.' });
    expect(newRequest({ ...initialForm(options), worktree: true, branch: '../x' }, options, 'r')).toMatchObject({ ok: false, problem: expect.stringMatching(/^A branch name/) });
    expect(newRequest({ ...initialForm(options), launcher: 'rm' }, options, 'r')).toEqual({ ok: false, problem: 'Choose what to run.' });
  });

  it('every request it makes is one the bridge schema accepts (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.boolean(), fc.string(), fc.constantFrom('default\n', 'default\nwork'), fc.string(), fc.boolean(), fc.string(), (branch, worktree, message, where, flags, save, saveName) => {
        const r = newRequest({ ...initialForm(options), branch, worktree, message, where, flags, save, saveName }, options, 'req-1');
        if (r.ok) expect(NewPaneRequest.safeParse(r.body).success).toBe(true);
        if (r.ok && r.save) expect(SaveLauncherRequest.safeParse(r.save).success).toBe(true);
      }),
    );
  });

  it('shows where the worktree goes', () => {
    expect(worktreePreview('/home/a/shop', 'fix/login')).toBe('/home/a/shop-worktrees/fix/login');
    expect(worktreePreview('/home/a/shop/', '')).toBe('/home/a/shop-worktrees/<branch>');
    expect(worktreePreview('/home/a/shop', 'fix/login', '/wt/')).toBe('/wt/shop/fix/login');
  });

  it("names a saved launcher's program, not its env words", () => {
    expect(launcherWords(['env', '-u', 'CI', 'HOME=/x', 'A_B=1', '/opt/sdk/claude', '--model', 'haiku'])).toBe('claude --model haiku');
    expect(launcherWords(['codex'])).toBe('codex');
    expect(launcherWords(['/usr/bin/env', 'X=1'])).toBe('');
    expect(launcherWords(['sh', '-c', 'x'.repeat(100)])).toHaveLength(60);
  });
});
