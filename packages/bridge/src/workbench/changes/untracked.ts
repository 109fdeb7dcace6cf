import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './git';
import { parseDiff, type ParsedFile } from './parse-diff';

/** A new file over this is said in words, not read: a log or a build output, not a change to review. */
export const MAX_NEW_FILE_BYTES = 1024 * 1024;
/** New files read per request (each costs a git process); the rest are listed in words. */
export const MAX_NEW_FILES = 100;

const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;

/**
 * The files git does not know yet, each as a diff against nothing (`git diff --no-index
 * /dev/null <path>`, through the one git helper and its safety options): every line added, a
 * binary file marked so by git, a symbolic link as the link it is (its target's name, never the
 * file it points to). A file over `MAX_NEW_FILE_BYTES`, or past the first `MAX_NEW_FILES`, is
 * not read: its `note` says why.
 */
export async function untrackedFiles(root: string, paths: readonly string[]): Promise<ParsedFile[]> {
  const out: ParsedFile[] = [];
  for (const [i, path] of paths.entries()) {
    const base: ParsedFile = { path, oldPath: null, status: 'untracked', binary: false, additions: 0, deletions: 0, hunks: [] };
    const info = await lstat(join(root, path)).catch(() => null);
    if (!info) continue;
    if (i >= MAX_NEW_FILES) {
      out.push({ ...base, note: `Not shown: more than ${MAX_NEW_FILES} new files.` });
      continue;
    }
    if (info.isFile() && info.size > MAX_NEW_FILE_BYTES) {
      out.push({ ...base, note: `A new file too large to show here (${mb(info.size)}); open it in Files.` });
      continue;
    }
    if (info.isFile() && info.size === 0) {
      out.push({ ...base, note: 'A new, empty file.' });
      continue;
    }
    const diff = await git(root, ['diff', '--no-index', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/', '--', '/dev/null', path], { exit1: true });
    const [file] = parseDiff(diff);
    out.push(file ? { ...file, path, oldPath: null, status: 'untracked' } : base);
  }
  return out;
}
