import { chmod, mkdir, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangesAnswer, NewPaneAnswer, WorktreesAnswer } from '@collie/protocol';
import { startTmux, tempDir, testDevice, type TempDir, type TestDevice, type TmuxServer } from '@collie/testkit';
import { bridgeFor, type TestBridge, until } from '../harness';
import { git } from '../workbench-helpers';

/**
 * The attack: a repository whose own config names commands (fsmonitor, hooks, clean/smudge
 * filters, textconv, external diff, pager, credential helper, editor, gpg, …), each one
 * `touch <marker>`. A plain `git status` / `git diff` there runs them; every route of the bridge
 * that runs git in it (changes, review, files, worktrees, a new pane in a new worktree, its
 * removal) must run none. Labels read the repository without git at all.
 */
describe('security: a repository that names its own commands runs none of them through the bridge (real git, real tmux, real bridge)', () => {
  let tmux: TmuxServer;
  let state: TempDir;
  let config: TempDir;
  let work: TempDir;
  let markers: string;
  let repo: string;
  let bridge: TestBridge;
  let watcher: TestDevice;
  let paneId: string;

  const ran = async () => (await readdir(markers)).sort();
  const api = (path: string, device: TestDevice = bridge.device, body?: unknown) =>
    fetch(`${bridge.url}/api/${path}`, body === undefined ? { headers: device.headers } : { method: 'POST', headers: { 'content-type': 'application/json', ...device.headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    tmux = await startTmux();
    state = await tempDir('collie-state');
    config = await tempDir('collie-config');
    work = await tempDir('collie-hostile');
    markers = join(await realpath(work.path), 'markers');
    await mkdir(markers);
    repo = join(await realpath(work.path), 'evil');
    await git(work.path, 'init', '-q', '-b', 'main', repo);
    await writeFile(join(repo, '.gitattributes'), 'a.txt filter=evil diff=evil\nb.txt filter=proc\nc.txt filter=evil\n');
    await writeFile(join(repo, 'a.txt'), 'one\n');
    await writeFile(join(repo, 'b.txt'), 'two\n');
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'first');
    const hooks = join(work.path, 'hooks');
    await mkdir(hooks);
    for (const h of ['post-checkout', 'reference-transaction', 'post-index-change', 'pre-auto-gc', 'post-commit', 'pre-commit']) {
      for (const dir of [hooks, join(repo, '.git', 'hooks')]) {
        await writeFile(join(dir, h), `#!/bin/sh\ntouch '${markers}/hook-${h}'\n`);
        await chmod(join(dir, h), 0o755);
      }
    }
    // git appends its own arguments ("$@"): they go to `true`/`cat`, not to `touch`.
    const touch = (name: string, then = '; true') => `touch '${markers}/${name}'${then}`;
    const settings: [string, string][] = [
      ['core.fsmonitor', touch('fsmonitor', '; echo')],
      ['core.hooksPath', hooks],
      ['filter.evil.clean', touch('filter-clean', '; cat')],
      ['filter.evil.smudge', touch('filter-smudge', '; cat')],
      ['filter.evil.required', 'true'],
      ['filter.proc.process', touch('filter-process')],
      ['diff.evil.textconv', touch('textconv', '; cat')],
      ['diff.evil.command', touch('diff-command')],
      ['diff.external', touch('diff-external')],
      ['core.pager', touch('pager', '; cat')],
      ['pager.status', touch('pager-status', '; cat')],
      ['credential.helper', `!${touch('credential')}`],
      ['core.sshCommand', touch('ssh')],
      ['core.editor', touch('editor')],
      ['sequence.editor', touch('sequence-editor')],
      ['gpg.program', touch('gpg')],
      ['log.showSignature', 'true'],
      ['core.alternateRefsCommand', touch('alternate-refs')],
      ['core.askPass', touch('askpass')],
    ];
    for (const [k, v] of settings) await git(repo, 'config', k, v);
    // Dirty files under every filter, and an untracked one: status and diff read them all.
    await writeFile(join(repo, 'a.txt'), 'one changed\n');
    await writeFile(join(repo, 'b.txt'), 'two changed\n');
    await writeFile(join(repo, 'c.txt'), 'new\n');
    await writeFile(join(config.path, 'launchers.json'), JSON.stringify({ launchers: [{ name: 'sh here', command: ['sh'] }] }));
    const tmuxPane = await tmux.newSession('evil', { cmd: 'cat', cwd: repo });
    paneId = `${tmux.name}:${tmuxPane}`;
    bridge = await bridgeFor(tmux.tmpDir, state.path, { configDir: config.path, env: { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_ROOTS: work.path, SHELL: '/bin/sh' } });
    watcher = await testDevice(state.path, 'watcher', { watchOnly: true });
    await until(bridge.hub, 'the pane in the hostile repository', (h) => h.panes.get(paneId)?.cwd === repo, 30_000);
  }, 60_000);

  afterAll(async () => {
    await bridge?.stop();
    await tmux?.kill();
    for (const d of [state, config, work]) await d?.remove();
  });

  it('the repository is hostile: plain git status and git diff run its fsmonitor, filters, diff commands and hooks', async () => {
    // The process filter is no real one: git gives up on it, after running it.
    const plain = (...args: string[]) => git(repo, ...args).catch(() => undefined);
    await plain('status');
    await plain('diff');
    await plain('-c', 'filter.proc.process=', 'diff');
    await plain('-c', 'filter.proc.process=', '-c', 'diff.external=', '-c', 'diff.evil.command=', 'diff');
    const before = await ran();
    for (const m of before) await rm(join(markers, m));
    expect(before).toEqual(expect.arrayContaining(['diff-command', 'diff-external', 'filter-clean', 'filter-process', 'fsmonitor', 'hook-post-index-change']));
  });

  it('reading its changes (a watch-only device, every page) and its label run none of them', async () => {
    const res = await api(`panes/${encodeURIComponent(paneId)}/changes`, watcher);
    expect(res.status, await res.clone().text()).toBe(200);
    const c = ChangesAnswer.parse(await res.json());
    expect(c.paths.map((p) => p.path).sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(bridge.hub.panes.get(paneId)?.label).toMatch(/^evil/);
    expect(await ran()).toEqual([]);
  });

  it('a review of the changes and the files pages run none of them', async () => {
    const review = await api(`panes/${encodeURIComponent(paneId)}/review`, bridge.device, { request_id: 'rv-1', comments: [{ path: 'a.txt', line: 1, side: 'new', code: 'one changed', text: 'why?' }] });
    expect(review.status, await review.clone().text()).toBe(200);
    expect((await api(`panes/${encodeURIComponent(paneId)}/files?path=`, watcher)).status).toBe(200);
    expect((await api(`panes/${encodeURIComponent(paneId)}/file?path=a.txt`, watcher)).status).toBe(200);
    expect(await ran()).toEqual([]);
  });

  it('a new pane in a new worktree of it, the worktrees list and the removal run none of them', async () => {
    const made = await api('panes/new', bridge.device, { launcher: 'sh here', folder: repo, session: 'evil', worktree: 'evil-wt', first_message: null, request_id: 'new-1' });
    expect(made.status, await made.clone().text()).toBe(200);
    const { pane, folder } = NewPaneAnswer.parse(await made.json());
    expect(await ran()).toEqual([]);
    const list = await api('worktrees');
    expect(list.status, await list.clone().text()).toBe(200);
    expect(WorktreesAnswer.parse(await list.json()).worktrees.map((w) => w.path)).toContain(folder);
    await until(bridge.hub, 'the new pane', (h) => h.panes.has(pane), 30_000);
    await tmux.killPane(pane.slice(pane.lastIndexOf(':') + 1));
    await until(bridge.hub, 'the new pane gone', (h) => !h.panes.has(pane), 30_000);
    const removed = await api('worktrees/remove', bridge.device, { path: folder, confirm: true });
    expect(removed.status, await removed.clone().text()).toBe(200);
    expect(await ran()).toEqual([]);
  });
});
