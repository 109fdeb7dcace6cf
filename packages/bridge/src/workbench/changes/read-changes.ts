import type { ChangesAnswer } from '@collie/protocol';
import { git } from './git';
import { parseDiff } from './parse-diff';
import { pageChanges } from './page';
import { parseStatus, type RepoStatus } from './status';

/** Git's empty tree: what a repository without a commit is compared with. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export async function repoRoot(cwd: string): Promise<string> {
  return (await git(cwd, ['rev-parse', '--show-toplevel'])).replace(/\n$/, '');
}

export async function repoStatus(root: string): Promise<RepoStatus> {
  return parseStatus(await git(root, ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--ignore-submodules=dirty']));
}

/**
 * The working tree against HEAD (staged and unstaged together; untracked files listed), one
 * page of it. Three git processes: the top folder, the status, the diff.
 */
export async function readChanges(cwd: string, page: number): Promise<ChangesAnswer> {
  const root = await repoRoot(cwd);
  const status = await repoStatus(root);
  const diff = await git(root, ['diff', status.initial ? EMPTY_TREE : 'HEAD', '-M', '--ignore-submodules=dirty', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/']);
  const { files, pages } = pageChanges(parseDiff(diff), status, page);
  const paths = status.entries.map((e) => ({ path: e.path, status: e.status }));
  return { root, branch: status.branch, files, paths, page: Math.min(page, pages - 1), pages };
}
