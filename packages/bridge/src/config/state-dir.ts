/**
 * The state directory: tokens, sockets and logs of what was typed into panes live there, so
 * only the user may read it (mode 0700).
 */
import { chmod, mkdir, stat } from 'node:fs/promises';

/**
 * Create `path` (and missing parents) with mode 0700, and set 0700 on a directory that
 * already exists with another mode: `mkdir`'s mode applies only to what it creates.
 *
 * @example
 * await ensureStateDir(config.stateDir);
 */
export async function ensureStateDir(path: string): Promise<void> {
  try {
    await mkdir(path, { recursive: true, mode: 0o700 });
    const st = await stat(path);
    if (!st.isDirectory()) throw new Error('not a directory');
    if ((st.mode & 0o777) !== 0o700) await chmod(path, 0o700);
  } catch (err) {
    throw new Error(`state dir: cannot prepare ${path}: ${(err as Error).message}`, { cause: err });
  }
}
