import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangesAnswer } from '@collie/protocol';
import { ApiError } from '../../http/api-error';
import type { Redactor } from '../../redact';
import { git } from './git';
import { parseDiff, type ParsedFile } from './parse-diff';
import { pageChanges } from './page';
import { parseStatus, type RepoStatus } from './status';
import { untrackedFiles } from './untracked';

/** Git's empty tree: what a repository without a commit is compared with. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * The top folder of the pane's repository. It must hold the repository's `.git`: a
 * `core.worktree` in the repository's own config may name any folder above it (the home
 * folder, `/`), which would make every file there the repository's.
 */
export async function repoRoot(cwd: string): Promise<string> {
  const top = (await git(cwd, ['rev-parse', '--show-toplevel'])).replace(/\n$/, '');
  if (!existsSync(join(top, '.git'))) throw new ApiError('not_found', "changes: the repository's work tree is set to another folder (core.worktree); it is not read");
  return top;
}

export async function repoStatus(root: string): Promise<RepoStatus> {
  return parseStatus(await git(root, ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--ignore-submodules=dirty']));
}

/**
 * The working tree against HEAD (staged and unstaged together; untracked files with their
 * contents, `untracked.ts`), one page of it, every line masked by `mask` before it is paged.
 * Git processes: the top folder, the status, the diff, one per new file.
 */
export async function readChanges(cwd: string, page: number, mask: Redactor): Promise<ChangesAnswer> {
  const root = await repoRoot(cwd);
  const status = await repoStatus(root);
  const diff = await git(root, ['diff', status.initial ? EMPTY_TREE : 'HEAD', '-M', '--ignore-submodules=dirty', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/']);
  const fresh = await untrackedFiles(root, status.entries.filter((e) => e.status === 'untracked').map((e) => e.path));
  const { files, pages } = pageChanges(maskDiff([...parseDiff(diff), ...fresh], mask), status, page);
  const paths = status.entries.map((e) => ({ path: e.path, status: e.status }));
  return { root, branch: status.branch, files, paths, page: Math.min(page, pages - 1), pages };
}

/**
 * The diff's secrets masked: a hunk's lines are masked together (a private key block spans
 * lines), its header alone (git puts the enclosing line there). Lengths may shrink, line
 * numbers stay.
 */
export function maskDiff(files: readonly ParsedFile[], mask: Redactor): ParsedFile[] {
  if (!mask.enabled) return [...files];
  return files.map((f) => ({
    ...f,
    hunks: f.hunks.map((h) => {
      const texts = mask.lines(h.lines.map((l) => l.text));
      return { header: mask(h.header), lines: h.lines.map((l, i) => ({ ...l, text: texts[i] ?? '' })) };
    }),
  }));
}
