/**
 * Where a directory's git repository lives, found by reading the file system the way git
 * does, without running git: the bridge labels every pane and may not spawn a process per
 * pane (budget: no periodic process spawning).
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** A working tree and the git directory that holds its HEAD. */
export interface GitLocation {
  /** The top of the working tree: the directory that holds `.git`. */
  readonly worktree: string;
  /** The git directory of this working tree: `.git`, or what a `.git` file points at. */
  readonly gitDir: string;
  /** The repository's name: see {@link repoName}. */
  readonly repo: string;
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

async function kind(path: string): Promise<'dir' | 'file' | null> {
  try {
    const s = await stat(path);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : null;
  } catch {
    return null;
  }
}

/**
 * The repository's name. A linked worktree (`git worktree add`) has a `commondir` file that
 * leads to the main repository's git directory, and we name the main repository: worktree
 * directories are often called after their branch, which the label shows anyway
 * (`collie#fix-465`, not `collie-fix-465#fix-465`). A submodule has no `commondir`, so it is
 * named after its own directory, like any other working tree.
 */
async function repoName(worktree: string, gitDir: string): Promise<string> {
  const common = await readText(join(gitDir, 'commondir'));
  if (common === null || common.trim() === '') return basename(worktree);
  const commonDir = resolve(gitDir, common.trim());
  // `<main>/.git` for a normal repository, `<name>.git` for a bare one with worktrees.
  if (basename(commonDir) === '.git') return basename(dirname(commonDir));
  return basename(commonDir).replace(/\.git$/, '');
}

/**
 * Walk up from `cwd` to the first `.git`. A directory is the git directory itself; a file
 * (worktrees, submodules) holds `gitdir: <path>`, relative to the file's directory or absolute.
 * Returns null outside a repository or when what is found is not readable as git's.
 */
export async function findGit(cwd: string): Promise<GitLocation | null> {
  let dir = resolve(cwd);
  for (;;) {
    const dotGit = join(dir, '.git');
    const found = await kind(dotGit);
    if (found === 'dir') return { worktree: dir, gitDir: dotGit, repo: await repoName(dir, dotGit) };
    if (found === 'file') {
      const text = await readText(dotGit);
      const m = text === null ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text);
      if (!m?.[1]) return null;
      const gitDir = resolve(dir, m[1]);
      return { worktree: dir, gitDir, repo: await repoName(dir, gitDir) };
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * What HEAD names: the branch (`ref: refs/heads/<branch>`, which may contain slashes), or
 * for a detached HEAD the commit's first 7 hex digits, as `git log --oneline` shows it.
 */
export async function readHead(gitDir: string): Promise<string | null> {
  const text = await readText(join(gitDir, 'HEAD'));
  if (text === null) return null;
  const head = text.trim();
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  if (ref) return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref.replace(/^refs\//, '');
  // SHA-1 ids are 40 hex digits, SHA-256 ones 64.
  if (/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(head)) return head.slice(0, 7);
  return null;
}
