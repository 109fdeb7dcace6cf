import { realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { ApiError } from '../../http/api-error';

/** Whether `real` is `root` or under it (both already resolved by `realpath`). Pure. */
export function isInside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Whether a relative path names a `.git` folder or goes through one (any case: some file systems fold it). Pure. */
export function inGitDir(rel: string): boolean {
  return rel.split(/[\\/]/).some((part) => part.toLowerCase() === '.git');
}

const gitDirRefused = (rel: string) => new ApiError('forbidden_path', `files: '${rel.slice(0, 200)}' is in a .git folder, which is never shown`);

/**
 * The real path of `rel` under the real `root`, every symlink resolved, refused when it leads
 * outside (`outside_root`), into or through a `.git` folder, by its name or a symlink
 * (`forbidden_path`), or is not there (`not_found`). `rel` is already checked by the protocol's
 * `FilePath` (no `..`, not absolute); the symlinks are what this checks.
 */
export async function resolveInside(root: string, rel: string): Promise<string> {
  if (inGitDir(rel)) throw gitDirRefused(rel);
  let real: string;
  try {
    real = await realpath(join(root, rel));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ApiError('not_found', `files: no '${rel.slice(0, 200)}' in the pane's folder`);
    if (code === 'ELOOP') throw new ApiError('outside_root', `files: '${rel.slice(0, 200)}' is a symlink loop`);
    throw e;
  }
  if (!isInside(root, real)) throw new ApiError('outside_root', `files: '${rel.slice(0, 200)}' leads outside the pane's repository or folder`);
  if (inGitDir(relative(root, real))) throw gitDirRefused(rel);
  return real;
}
