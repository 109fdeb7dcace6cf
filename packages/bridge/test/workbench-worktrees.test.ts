import { existsSync } from 'node:fs';
import { realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, NewOptions, NewPaneAnswer, RemoveWorktreeAnswer, WorktreesAnswer } from '@collie/protocol';
import type { TempDir, TmuxServer } from '@collie/testkit';
import { git } from './workbench-helpers';
import { type TestBridge, until } from './harness';
import { worktreeFolder } from '../src/workbench/new/routes';
import { liveDesk, type LiveDesk } from './live-rig';

describe('worktrees: the ones New made, listed with their state and removed from the phone, never silently (real tmux, real git)', () => {
  let desk: LiveDesk;
  let tmux: TmuxServer, state: TempDir, work: TempDir;
  let repo: string;
  let trees: string;
  let bridge: TestBridge;

  const post = (path: string, body: unknown) => fetch(`${bridge.url}/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: JSON.stringify(body) });
  const list = async () => {
    const res = await fetch(`${bridge.url}/api/worktrees`, { headers: bridge.device.headers });
    expect(res.status, await res.clone().text()).toBe(200);
    return WorktreesAnswer.parse(await res.json()).worktrees;
  };
  const refused = async (res: Response, status: number, message: RegExp) => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    expect(ErrorBody.parse(JSON.parse(text)).error.message).toMatch(message);
  };
  /** A shell pane in a new worktree on `branch`, through the New route. */
  const newWorktree = async (branch: string) => {
    const res = await post('panes/new', { folder: repo, launcher: 'shell', session: 'home', worktree: branch, first_message: null, request_id: `wt-${branch.replace(/\//g, '-')}` });
    expect(res.status, await res.clone().text()).toBe(200);
    const a = NewPaneAnswer.parse(await res.json());
    await until(bridge.hub, 'the pane in the worktree', (h) => h.panes.get(a.pane)?.cwd === a.folder, 30_000);
    return a;
  };
  const close = async (paneId: string) => {
    await tmux.tmux('kill-pane', '-t', paneId.slice(paneId.indexOf(':') + 1));
    await until(bridge.hub, 'the pane gone', (h) => !h.panes.has(paneId), 30_000);
  };

  beforeAll(async () => {
    desk = await liveDesk('collie-roots');
    ({ tmux, state, work } = desk);
    repo = join(await realpath(work.path), 'shop');
    trees = join(await realpath(work.path), 'trees');
    await git(work.path, 'init', '-q', '-b', 'main', repo);
    await writeFile(join(repo, 'a.txt'), 'a\n');
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'first');
    // The first pane's folder is the test's own: never this checkout, whose worktrees would be listed.
    await tmux.newSession('home', { cmd: 'cat', cwd: work.path });
    bridge = await desk.startBridge({ env: { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_ROOTS: work.path, COLLIE_WORKTREE_DIR: trees, SHELL: '/bin/sh' } });
    await until(bridge.hub, 'the first pane', (h) => h.panes.size > 0, 30_000);
  }, 60_000);

  afterAll(() => desk?.[Symbol.asyncDispose]());

  it('refuses removing a worktree with unpushed commits until confirmed, and one a pane still runs in', async () => {
    const a = await newWorktree('fix/login');
    // COLLIE_WORKTREE_DIR: <dir>/<repo>/<branch>, said by GET /api/new too.
    const folder = worktreeFolder(repo, 'fix/login', trees);
    expect(a.folder).toBe(join(trees, 'shop', 'fix', 'login'));
    expect(NewOptions.parse(await (await fetch(`${bridge.url}/api/new`, { headers: bridge.device.headers })).json()).worktreeDir).toBe(trees);
    const [w] = (await list()).filter((x) => x.path === folder);
    expect(w).toEqual({ repo, path: folder, branch: 'fix/login', panes: [a.pane], merged: true, unpushed: 0, dirty: 0, missing: false });
    await refused(await post('worktrees/remove', { path: folder, confirm: true }), 409, /a pane runs in '.*fix\/login'.*close it first/);

    await writeFile(join(folder, 'login.ts'), 'export {};\n');
    await git(folder, 'add', '-A');
    await git(folder, 'commit', '-q', '-m', 'login');
    await writeFile(join(folder, 'scratch.txt'), 'wip\n');
    await close(a.pane);
    expect((await list()).find((x) => x.path === folder)).toMatchObject({ panes: [], merged: false, unpushed: 1, dirty: 1 });

    await refused(await post('worktrees/remove', { path: folder, confirm: false }), 409, /'fix\/login' holds 1 unpushed commit and 1 changed or untracked file, which removing it would lose: confirm to remove it anyway/);
    expect(existsSync(folder)).toBe(true);
    const res = await post('worktrees/remove', { path: folder, confirm: true });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(RemoveWorktreeAnswer.parse(await res.json())).toEqual({ removed: folder, branch: 'fix/login' });
    expect(existsSync(folder)).toBe(false);
    expect((await git(repo, 'branch', '--list', 'fix/login')).stdout.trim()).toBe('');
    expect((await list()).some((x) => x.path === folder)).toBe(false);
  }, 120_000);

  it('removes a merged, clean worktree without a confirmation; a folder already gone is pruned', async () => {
    const a = await newWorktree('docs');
    const b = await newWorktree('gone');
    await close(a.pane);
    await close(b.pane);
    const res = await post('worktrees/remove', { path: a.folder, confirm: false });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(existsSync(a.folder)).toBe(false);
    // The folder deleted by hand: listed as missing, removed (pruned) with its branch.
    await rm(b.folder, { recursive: true, force: true });
    expect((await list()).find((x) => x.path === b.folder)).toMatchObject({ missing: true, dirty: 0, branch: 'gone' });
    expect((await post('worktrees/remove', { path: b.folder, confirm: false })).status).toBe(200);
    expect((await git(repo, 'worktree', 'list', '--porcelain')).stdout).not.toContain(b.folder);
    expect((await git(repo, 'branch', '--list', 'gone')).stdout.trim()).toBe('');
  }, 120_000);

  it('answers a path that is no worktree, the main worktree and bad bodies with their errors', async () => {
    await refused(await post('worktrees/remove', { path: '/etc', confirm: true }), 404, /no worktree '\/etc' of the repositories the New page offers/);
    await refused(await post('worktrees/remove', { path: repo, confirm: true }), 404, /no worktree/);
    expect((await post('worktrees/remove', { path: repo })).status).toBe(400);
    expect((await post('worktrees/remove', { path: '', confirm: true })).status).toBe(400);
    expect((await post('worktrees/remove', { path: repo, confirm: 'yes' })).status).toBe(400);
    expect((await fetch(`${bridge.url}/api/worktrees`)).status).toBe(401);
    expect(existsSync(repo)).toBe(true);
  });
});
