import { mkdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, LaunchersFile, NewOptions, NewPaneAnswer } from '@collie/protocol';
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

  it('saves a launcher from the phone (a program offered, its flags, a folder): listed first, started with them; refusals say why', async () => {
    const save = (body: unknown) => fetch(`${bridge.url}/api/launchers`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: JSON.stringify(body) });
    const plain = join(await realpath(work.path), 'plain');
    const res = await save({ name: 'note maker', base: 'sh here', args: ['-c', 'printf saved > launched.txt; exec cat'], folder: plain });
    expect(res.status, await res.clone().text()).toBe(200);
    const file = join(config.path, 'launchers.json');
    expect(LaunchersFile.parse(await res.json()).launchers[0]).toEqual({ name: 'note maker', command: ['sh', '-c', 'printf saved > launched.txt; exec cat'], folder: plain });
    expect(LaunchersFile.parse(JSON.parse(await readFile(file, 'utf8'))).launchers.map((l) => l.name)).toEqual(['note maker', 'sh here']);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // Listed first, its folder offered, and started with its flags in its folder.
    const o = NewOptions.parse(await (await fetch(`${bridge.url}/api/new`, { headers: bridge.device.headers })).json());
    expect(o.launchers[0]).toMatchObject({ name: 'note maker', source: 'saved', folder: plain });
    expect(o.folders.some((f) => f.path === plain)).toBe(true);
    const started = await post({ ...base, launcher: 'note maker', folder: plain, request_id: 'saved-1' });
    expect(started.status, await started.clone().text()).toBe(200);
    await expect.poll(() => readFile(join(plain, 'launched.txt'), 'utf8').catch(() => ''), { timeout: 30_000 }).toBe('saved');
    // Flags for one start only (not saved): after the launcher's own command.
    const once = await post({ ...base, launcher: 'sh here', folder: plain, args: ['-c', 'printf once > once.txt; exec cat'], request_id: 'saved-2' });
    expect(once.status, await once.clone().text()).toBe(200);
    await expect.poll(() => readFile(join(plain, 'once.txt'), 'utf8').catch(() => ''), { timeout: 30_000 }).toBe('once');

    await refused(await save({ name: 'claude', base: 'sh here', args: [], folder: null }), 400, /'claude' is a built-in launcher's name/);
    await refused(await save({ name: 'x', base: 'rm', args: [], folder: null }), 400, /no launcher 'rm' to start from/);
    await refused(await save({ name: 'x', base: 'sh here', args: [], folder: outside.path }), 400, /neither a pane's folder nor inside COLLIE_ROOTS/);
    await refused(await save({ name: 'x', base: 'sh here', args: ['a\nb'], folder: null }), 400, /control characters/);
    await refused(await save({ name: '../x', base: 'sh here', args: [], folder: null }), 400, /a launcher name is/);
    await refused(await save({ name: 'x', base: 'sh here', args: Array.from({ length: 20 }, () => 'a'), folder: null, extra: 1 }), 400, /extra|Unrecognized/);
    await refused(await post({ ...base, folder: plain, args: ['ok', '\u0000'], request_id: 'saved-3' }), 400, /control characters/);
    // Removed from the phone; a name never saved is a 404.
    const removed = await fetch(`${bridge.url}/api/launchers/remove`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: JSON.stringify({ name: 'note maker' }) });
    expect(LaunchersFile.parse(await removed.json()).launchers.map((l) => l.name)).toEqual(['sh here']);
    await refused(await fetch(`${bridge.url}/api/launchers/remove`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: JSON.stringify({ name: 'note maker' }) }), 404, /no saved launcher 'note maker'/);
    // A broken file is reported, never overwritten by a save.
    const good = await readFile(file, 'utf8');
    await writeFile(file, '{ not json');
    await refused(await save({ name: 'y', base: 'shell', args: [], folder: null }), 409, /launchers\.json is not JSON; fix or remove it/);
    expect(await readFile(file, 'utf8')).toBe('{ not json');
    await writeFile(file, good);
    expect((await fetch(`${bridge.url}/api/launchers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
  }, 120_000);

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
