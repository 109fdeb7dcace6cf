import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, NewOptions, NewPaneAnswer } from '@collie/protocol';
import { startTmux, tempDir, type TempDir, type TmuxServer } from '@collie/testkit';
import { git } from './workbench-helpers';
import { bridgeFor, type TestBridge, until } from './harness';
import { finalReceipt } from './send-helpers';
import { worktreeFolder } from '../src/workbench/new/routes';


describe('new: a pane started from the phone in a folder under COLLIE_ROOTS (real tmux, real git, a saved launcher)', () => {
  let tmux: TmuxServer;
  let state: TempDir;
  let config: TempDir;
  let work: TempDir;
  let outside: TempDir;
  let repo: string;
  let bridge: TestBridge;

  const post = (body: unknown) => fetch(`${bridge.url}/api/panes/new`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: JSON.stringify(body) });
  const refused = async (res: Response, status: number, message: RegExp) => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    expect(ErrorBody.parse(JSON.parse(text)).error.message).toMatch(message);
  };
  const base = { launcher: 'sh here', session: 'home', worktree: null, first_message: null };

  beforeAll(async () => {
    tmux = await startTmux();
    state = await tempDir('collie-state');
    config = await tempDir('collie-config');
    work = await tempDir('collie-roots');
    outside = await tempDir('collie-outside');
    // A folder with a space: tmux gets it as one argument, never through a shell.
    repo = join(await realpath(work.path), 'my shop');
    await mkdir(join(work.path, 'plain'));
    await git(work.path, 'init', '-q', '-b', 'main', repo);
    await writeFile(join(repo, 'a.txt'), 'a\n');
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'first');
    await writeFile(join(config.path, 'launchers.json'), JSON.stringify({ launchers: [{ name: 'sh here', command: ['sh'] }] }));
    await tmux.newSession('home', { cmd: 'cat' });
    bridge = await bridgeFor(tmux.tmpDir, state.path, { configDir: config.path, env: { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_ROOTS: work.path, SHELL: '/bin/sh' } });
    await until(bridge.hub, 'the first pane', (h) => h.panes.size > 0, 30_000);
  }, 60_000);

  afterAll(async () => {
    await bridge?.stop();
    await tmux?.kill();
    for (const d of [state, config, work, outside]) await d?.remove();
  });

  it('offers the repositories under the roots, the saved launcher first, the shell, and the sessions', async () => {
    const res = await fetch(`${bridge.url}/api/new`, { headers: bridge.device.headers });
    expect(res.status, await res.clone().text()).toBe(200);
    const o = NewOptions.parse(await res.json());
    expect(o.folders).toEqual(expect.arrayContaining([{ path: repo, repo: true, recent: false }]));
    expect(o.launchers[0]).toMatchObject({ name: 'sh here', command: ['sh'], source: 'saved' });
    expect(o.launchers.at(-1)).toMatchObject({ name: 'shell', source: 'shell' });
    expect(o.sessions).toEqual([{ server: tmux.name, session: 'home' }]);
    expect((await fetch(`${bridge.url}/api/new`)).status).toBe(401);
  }, 60_000);

  it('opens a window with a saved launcher in a new worktree; the first message arrives once, through the send protocol', async () => {
    const res = await post({ ...base, folder: repo, worktree: 'fix/login', first_message: 'printf x >> first.txt', request_id: 'new-1' });
    expect(res.status, await res.clone().text()).toBe(200);
    const a = NewPaneAnswer.parse(await res.json());
    const folder = worktreeFolder(repo, 'fix/login');
    expect(a.folder).toBe(folder);
    expect(folder).toBe(join(work.path, 'my shop-worktrees', 'fix', 'login').replace(work.path, await realpath(work.path)));
    await until(bridge.hub, 'the new pane in the worktree', (h) => h.panes.get(a.pane)?.cwd === folder, 30_000);
    expect((await git(folder, 'rev-parse', '--abbrev-ref', 'HEAD')).stdout.trim()).toBe('fix/login');
    // A shell is not an agent: the receipt's last word is typed (an agent's would be delivered).
    expect((await finalReceipt(bridge, 'new-1', 60_000)).state).toBe('typed');
    await expect.poll(() => readFile(join(folder, 'first.txt'), 'utf8').catch(() => ''), { timeout: 30_000 }).toBe('x');
    // The same branch again: refused, nothing opened.
    await refused(await post({ ...base, folder: repo, worktree: 'fix/login', request_id: 'new-2' }), 409, /branch 'fix\/login' exists already/);
  }, 120_000);

  it('opens a new session when none is named', async () => {
    const before = (await tmux.tmux('list-sessions', '-F', '#{session_name}')).trim().split('\n').length;
    const res = await post({ ...base, folder: join(work.path, 'plain'), session: null, launcher: 'shell', request_id: 'new-3' });
    expect(res.status, await res.clone().text()).toBe(200);
    const a = NewPaneAnswer.parse(await res.json());
    await until(bridge.hub, 'the new pane', (h) => h.panes.has(a.pane), 30_000);
    expect((await tmux.tmux('list-sessions', '-F', '#{session_name}')).trim().split('\n').length).toBe(before + 1);
  }, 60_000);

  it('refuses a folder outside the roots, an unknown launcher, session or server, and bad branch names, each with its error', async () => {
    await refused(await post({ ...base, folder: outside.path, request_id: 'r1' }), 400, /neither a pane's folder nor inside COLLIE_ROOTS/);
    await refused(await post({ ...base, folder: `${repo}/../../`, request_id: 'r2' }), 400, /neither a pane's folder nor inside COLLIE_ROOTS/);
    await refused(await post({ ...base, folder: 'relative/dir', request_id: 'r3' }), 400, /neither a pane's folder/);
    await refused(await post({ ...base, folder: repo, launcher: 'rm -rf', request_id: 'r4' }), 400, /no launcher 'rm -rf'/);
    await refused(await post({ ...base, folder: repo, session: 'nope', request_id: 'r5' }), 400, /no session 'nope'/);
    await refused(await post({ ...base, folder: repo, server: 'nope', request_id: 'r6' }), 400, /no tmux server 'nope'/);
    for (const bad of ['-x', '../up', 'a..b', 'a b', 'x.lock', '/abs']) {
      const res = await post({ ...base, folder: repo, worktree: bad, request_id: 'r7' });
      expect(res.status, bad).toBe(400);
    }
    await refused(await post({ ...base, folder: join(work.path, 'plain'), worktree: 'b1', request_id: 'r8' }), 404, /not in a git repository/);
  });
});
