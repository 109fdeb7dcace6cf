import { copyFile, lstat, mkdir, readFile, rm, stat, writeFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FileState } from './plan';

/** The edge: what is at a path, without following a symlink. */
export async function readState(path: string): Promise<FileState> {
  let st;
  try {
    st = await lstat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'absent' } : { kind: 'unreadable', why: code ?? 'error' };
  }
  if (st.isSymbolicLink()) return { kind: 'symlink' };
  if (!st.isFile()) return { kind: 'unreadable', why: 'not a file' };
  try {
    return { kind: 'file', text: await readFile(path, 'utf8') };
  } catch (err) {
    return { kind: 'unreadable', why: (err as NodeJS.ErrnoException).code ?? 'error' };
  }
}

export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Keep `<file>.collie-backup` before the first change of a file that was there. */
export async function backupOnce(path: string): Promise<void> {
  const backup = `${path}.collie-backup`;
  if (!(await exists(backup))) await copyFile(path, backup);
}

/** Replace a user's file keeping its mode; a new file gets 0644 like any instruction file. */
export async function writeText(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const mode = await stat(path).then(
    (s) => s.mode & 0o777,
    () => 0o644,
  );
  const temp = `${path}.collie-tmp-${process.pid}`;
  await writeFile(temp, text, { mode });
  await rename(temp, path);
}

export const removeFile = (path: string) => rm(path, { force: true });
