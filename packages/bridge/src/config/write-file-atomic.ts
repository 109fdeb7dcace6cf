/** Atomic file replacement, for everything the state directory keeps across restarts. */
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pidRunning } from './pid-running';

async function syncDir(dir: string): Promise<void> {
  // Makes the rename itself durable. Best effort: some file systems refuse fsync on a directory.
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The data is already safe in the renamed file; only the directory entry may lag.
  }
}

/**
 * Replace `path` with `data` so a reader sees the old file or the new one, never a part:
 * write a temp file beside it, fsync, rename over. The file gets exactly `mode`, whatever
 * the umask.
 *
 * @example
 * await writeFileAtomic(join(stateDir, 'walky', 'instances.json'), JSON.stringify(tokens));
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.chmod(mode);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await syncDir(dir);
  await sweepLeftovers(dir, basename(path));
}

/**
 * Temp files of `base` that a process killed mid-write left beside it (their pid no longer
 * runs): nothing reads them, so they go. This process's own (a write in flight) and a running
 * process's are left.
 */
async function sweepLeftovers(dir: string, base: string): Promise<void> {
  const prefix = `.${base}.`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)\.[0-9a-f]{12}\.tmp$/.exec(name.slice(prefix.length));
    if (!m || Number(m[1]) === process.pid || pidRunning(Number(m[1]))) continue;
    await rm(join(dir, name), { force: true }).catch(() => undefined);
  }
}
