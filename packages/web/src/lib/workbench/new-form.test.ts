import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NewPaneRequest, type NewOptions } from '@collie/protocol';
import { initialForm, launcherWords, newRequest, worktreePreview } from './new-form';

const options: NewOptions = {
  folders: [
    { path: '/home/a/shop', repo: true, recent: true },
    { path: '/home/a/notes', repo: false, recent: false },
  ],
  launchers: [
    { name: 'claude fast', command: ['claude', '--model', 'haiku'], source: 'saved', version: null },
    { name: 'shell', command: ['sh'], source: 'shell', version: null },
  ],
  sessions: [{ server: 'default', session: 'work' }],
  worktreeDir: null,
};

describe('the New form', () => {
  it('starts on the first launcher and folder, in a new session', () => {
    expect(initialForm(options)).toEqual({ launcher: 'claude fast', folder: '/home/a/shop', where: 'default\n', worktree: false, branch: '', message: '' });
  });

  it('makes the request the bridge takes, a blank first message left out', () => {
    const r = newRequest({ ...initialForm(options), where: 'default\nwork', worktree: true, branch: 'fix/login', message: 'Fix the login' }, options, 'r1');
    expect(r).toEqual({ ok: true, body: { folder: '/home/a/shop', launcher: 'claude fast', server: 'default', session: 'work', worktree: 'fix/login', first_message: 'Fix the login', request_id: 'r1' } });
    const blank = newRequest({ ...initialForm(options), message: '  ' }, options, 'r2');
    expect(blank.ok && blank.body.first_message).toBe(null);
  });

  it('says what is wrong: a worktree outside a repository, a bad branch, nothing chosen', () => {
    expect(newRequest({ ...initialForm(options), folder: '/home/a/notes', worktree: true, branch: 'x' }, options, 'r')).toEqual({ ok: false, problem: 'A worktree needs a folder that is a git repository.' });
    expect(newRequest({ ...initialForm(options), worktree: true, branch: '../x' }, options, 'r')).toMatchObject({ ok: false, problem: expect.stringMatching(/^A branch name/) });
    expect(newRequest({ ...initialForm(options), launcher: 'rm' }, options, 'r')).toEqual({ ok: false, problem: 'Choose what to run.' });
  });

  it('every request it makes is one the bridge schema accepts (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.boolean(), fc.string(), fc.constantFrom('default\n', 'default\nwork'), (branch, worktree, message, where) => {
        const r = newRequest({ ...initialForm(options), branch, worktree, message, where }, options, 'req-1');
        if (r.ok) expect(NewPaneRequest.safeParse(r.body).success).toBe(true);
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
