import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory, removed with everything in it on dispose. */
export interface TempDir extends AsyncDisposable {
  /** Absolute, symlink-free path (so it matches what a child process reports as its cwd). */
  readonly path: string;
  /** Removes the directory. Safe to call twice. */
  remove(): Promise<void>;
}

/**
 * Creates a private temp dir (mode 0700) under the OS temp dir.
 *
 * @example
 * await using state = await tempDir('collie-state-');
 * process.env.COLLIE_STATE_DIR = state.path;
 */
export async function tempDir(prefix = 'collie-test-'): Promise<TempDir> {
  const path = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  // Retries ride out a process that is still writing into the dir as it exits.
  const remove = () => rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  return { path, remove, [Symbol.asyncDispose]: remove };
}
