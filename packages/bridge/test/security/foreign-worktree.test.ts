import { realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, FilesAnswer } from '@collie/protocol';
import type { TempDir, TmuxServer } from '@collie/testkit';
import type { TestBridge } from '../harness';
import { git, watchPaneIn } from '../workbench-helpers';
import { liveDesk, type LiveDesk } from '../live-rig';

/**
 * The attack: a repository whose config sets `core.worktree` to a folder above it (the home
 * folder, `/`), so git's "top of the repository" is that folder: the files and changes routes
 * would then list and read everything under it. The top must hold the `.git` it came from.
 */
describe('security: core.worktree pointing above the repository does not widen what is served (real git, real tmux, real bridge)', () => {
  let desk: LiveDesk;
  let tmux: TmuxServer, state: TempDir, work: TempDir;
  let repo: string;
  let bridge: TestBridge;
  let get: (route: string) => Promise<Response>;

  beforeAll(async () => {
    desk = await liveDesk('collie-foreign');
    ({ tmux, state, work } = desk);
    const home = await realpath(work.path);
    repo = join(home, 'repo');
    await git(home, 'init', '-q', '-b', 'main', repo);
    await writeFile(join(repo, 'mine.txt'), 'mine\n');
    await writeFile(join(home, 'outside-secret.txt'), 'not the repository\'s\n');
    await git(repo, 'config', 'core.worktree', home);
    ({ bridge, get } = await watchPaneIn(tmux, state.path, 'foreign', repo));
    desk.keep(bridge);
  }, 60_000);

  afterAll(() => desk?.[Symbol.asyncDispose]());

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
