import { realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, FilesAnswer } from '@collie/protocol';
import { startTmux, tempDir, testDevice, type TempDir, type TestDevice, type TmuxServer } from '@collie/testkit';
import { bridgeFor, type TestBridge, until } from '../harness';
import { git } from '../workbench-helpers';

/**
 * The attack: a repository whose config sets `core.worktree` to a folder above it (the home
 * folder, `/`), so git's "top of the repository" is that folder: the files and changes routes
 * would then list and read everything under it. The top must hold the `.git` it came from.
 */
describe('security: core.worktree pointing above the repository does not widen what is served (real git, real tmux, real bridge)', () => {
  let tmux: TmuxServer;
  let state: TempDir;
  let work: TempDir;
  let repo: string;
  let bridge: TestBridge;
  let watcher: TestDevice;
  let paneId: string;
  const get = (route: string) => fetch(`${bridge.url}/api/panes/${encodeURIComponent(paneId)}/${route}`, { headers: watcher.headers });

  beforeAll(async () => {
    tmux = await startTmux();
    state = await tempDir('collie-state');
    work = await tempDir('collie-foreign');
    const home = await realpath(work.path);
    repo = join(home, 'repo');
    await git(home, 'init', '-q', '-b', 'main', repo);
    await writeFile(join(repo, 'mine.txt'), 'mine\n');
    await writeFile(join(home, 'outside-secret.txt'), 'not the repository\'s\n');
    await git(repo, 'config', 'core.worktree', home);
    const tmuxPane = await tmux.newSession('foreign', { cmd: 'cat', cwd: repo });
    paneId = `${tmux.name}:${tmuxPane}`;
    bridge = await bridgeFor(tmux.tmpDir, state.path);
    watcher = await testDevice(state.path, 'watcher', { watchOnly: true });
    await until(bridge.hub, 'the pane', (h) => h.panes.get(paneId)?.cwd === repo, 30_000);
  }, 60_000);

  afterAll(async () => {
    await bridge?.stop();
    await tmux?.kill();
    await state?.remove();
    await work?.remove();
  });

  it('browses only the pane\'s own folder, never the folder core.worktree names', async () => {
    const res = await get('files?path=');
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const f = FilesAnswer.parse(JSON.parse(text));
    expect(f.root).toBe(repo);
    expect(f.entries.map((e) => e.name)).toEqual(['mine.txt']);
    expect(text).not.toContain('outside-secret');
  });

  it('does not read changes across the foreign folder', async () => {
    const res = await get('changes');
    const text = await res.text();
    expect(text).not.toContain('outside-secret');
    expect(res.status, text).toBe(404);
    expect(ErrorBody.parse(JSON.parse(text)).error.code).toBe('not_found');
  });
});
