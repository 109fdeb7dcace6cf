import { existsSync } from 'node:fs';
import { Hono } from 'hono';
import { RemoveWorktreeRequest, type Pane, type RemoveWorktreeAnswer, type Worktree, type WorktreesAnswer } from '@collie/protocol';
import { ApiError, fail } from '../../http/api-error';
import { body } from '../../http/routes/sends';
import { git } from '../changes/git';
import { listWorktrees } from './state';

export interface WorktreeRouteDeps {
  panes: () => Pane[];
  /** The folders the New page offers (the repositories whose worktrees are listed). */
  folders: () => Promise<string[]>;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What removing the worktree would lose, in words; null when nothing. Pure. */
export function lossWords(w: Pick<Worktree, 'unpushed' | 'dirty'>): string | null {
  const parts = [...(w.unpushed > 0 ? [plural(w.unpushed, 'unpushed commit', 'unpushed commits')] : []), ...(w.dirty > 0 ? [plural(w.dirty, 'changed or untracked file', 'changed or untracked files')] : [])];
  return parts.length ? parts.join(' and ') : null;
}

/** `GET /api/worktrees` and `POST /api/worktrees/remove`: never silently, never under a running pane. */
export function worktreeRoutes(d: WorktreeRouteDeps): Hono {
  const r = new Hono();
  const list = async () => listWorktrees(await d.folders(), d.panes().flatMap((p) => (p.cwd ? [{ id: p.id, cwd: p.cwd }] : [])));
  r.get('/worktrees', async (c) => {
    const answer: WorktreesAnswer = { worktrees: await list() };
    return c.json(answer);
  });
  r.post('/worktrees/remove', async (c) => {
    const b = await body(c, RemoveWorktreeRequest);
    if (b instanceof ApiError) return fail(c, b);
    const w = (await list()).find((x) => x.path === b.path);
    if (!w) return fail(c, new ApiError('not_found', `worktrees: no worktree '${b.path.slice(0, 200)}' of the repositories the New page offers`));
    if (w.panes.length > 0) return fail(c, new ApiError('conflict', `worktrees: a pane runs in '${w.path.slice(0, 200)}' (${w.panes.join(', ').slice(0, 200)}); close it first`));
    const loss = lossWords(w);
    if (loss && !b.confirm) return fail(c, new ApiError('conflict', `worktrees: '${w.branch ?? w.path.slice(0, 200)}' holds ${loss}, which removing it would lose: confirm to remove it anyway`));
    // --force: a dirty worktree goes only after the confirmation above; git refuses it otherwise.
    if (w.missing || !existsSync(w.path)) await git(w.repo, ['worktree', 'prune']);
    else await git(w.repo, ['worktree', 'remove', ...(loss ? ['--force'] : []), '--', w.path]);
    if (w.branch) await git(w.repo, ['branch', loss || !w.merged ? '-D' : '-d', '--', w.branch]);
    const answer: RemoveWorktreeAnswer = { removed: w.path, branch: w.branch };
    return c.json(answer);
  });
  return r;
}
