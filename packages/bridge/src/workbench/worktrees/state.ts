import { existsSync, lstatSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { Worktree } from '@collie/protocol';
import { git } from '../changes/git';
import { isInside } from '../files/inside';
import { parseWorktrees } from './porcelain';

/** At most this many repositories are asked for their worktrees per request (one `git` each). */
const MAX_REPOS = 100;

/** Whether a folder can hold linked worktrees or is one: `.git/worktrees/` exists, or `.git` is a file. */
function mayHaveWorktrees(folder: string): boolean {
  const dotGit = join(folder, '.git');
  try {
    return lstatSync(dotGit).isFile() || existsSync(join(dotGit, 'worktrees'));
  } catch {
    return false;
  }
}

/** The number of entries `git status --porcelain -z` lists (changed, staged, untracked); 0 for a missing folder. */
async function dirtyCount(path: string): Promise<number> {
  if (!existsSync(path)) return 0;
  const out = await git(path, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=dirty']);
  // A rename's entry carries its old path as a second NUL-ended field.
  let n = 0;
  const parts = out.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] ?? '';
    if (p === '') continue;
    n++;
    if (p[0] === 'R' || p[0] === 'C') i++;
  }
  return n;
}

/**
 * The linked worktrees of the repositories holding `folders` (the New page's folders), each
 * with what removing it and its branch would lose. One `git worktree list` per repository,
 * then per worktree `status`, `merge-base --is-ancestor` and `rev-list --count`.
 */
export async function listWorktrees(folders: readonly string[], paneCwds: readonly { id: string; cwd: string }[]): Promise<Worktree[]> {
  const seenRepos = new Set<string>();
  const out: Worktree[] = [];
  const paneReal = await Promise.all(paneCwds.map(async (p) => ({ id: p.id, real: await realpath(p.cwd).catch(() => p.cwd) })));
  for (const f of folders.filter(mayHaveWorktrees).slice(0, MAX_REPOS)) {
    const records = parseWorktrees(await git(f, ['worktree', 'list', '--porcelain', '-z']).catch(() => ''));
    const main = records[0];
    if (!main || seenRepos.has(main.path)) continue;
    seenRepos.add(main.path);
    for (const w of records.slice(1)) out.push(await stateOf(main.path, main.head, w.path, w.branch, w.prunable || !existsSync(w.path), paneReal));
  }
  return out;
}

async function stateOf(repo: string, mainHead: string | null, path: string, branch: string | null, missing: boolean, panes: readonly { id: string; real: string }[]): Promise<Worktree> {
  const real = missing ? path : await realpath(path).catch(() => path);
  const inside = panes.filter((p) => isInside(real, p.real)).map((p) => p.id);
  let merged = false;
  let unpushed = 0;
  if (branch) {
    const ref = `refs/heads/${branch}`;
    // `merge-base --is-ancestor` answers by its exit status: 0 merged, 1 not (a rejection here).
    merged = mainHead !== null && (await git(repo, ['merge-base', '--is-ancestor', ref, mainHead]).then(() => true, () => false));
    // --exclude takes the branch's short name (a glob, so its glob characters escaped) for --branches.
    const count = await git(repo, ['rev-list', '--count', ref, '--not', `--exclude=${branch.replace(/[*?[\\]/g, '\\$&')}`, '--branches', '--remotes']);
    unpushed = Number(count.trim()) || 0;
  }
  return { repo, path, branch, panes: inside, merged, unpushed, dirty: missing ? 0 : await dirtyCount(path), missing };
}
