/**
 * Which pane a socket call comes from, proved by the bridge from /proc, never taken from
 * the request. Node has no SO_PEERCRED, so the caller names its pid and the bridge checks
 * what it can: the process belongs to this user and holds a connected unix socket now, and
 * its ancestry reaches a pane's process. An agent runs as the user and could still name
 * another process (docs/walky.md, "What the proof is worth"); the page says as much.
 */
import { open, readFile, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { parseStat } from '../procs';

/** How far up the ancestry a caller may sit below its pane (agent → shell → tool → collie). */
const MAX_DEPTH = 64;

async function small(path: string): Promise<string | null> {
  try {
    const fh = await open(path, 'r');
    try {
      const buf = Buffer.allocUnsafe(8192);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      return buf.toString('utf8', 0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch {
    return null;
  }
}

/** The real uid of a process (`Uid:` in /proc/<pid>/status), or null. */
export function uidOf(status: string): number | null {
  const m = /^Uid:\s+(\d+)/m.exec(status);
  return m ? Number(m[1]) : null;
}

/** Inodes of connected unix sockets, from /proc/net/unix (`St` 03 is SS_CONNECTED). */
export function connectedUnixInodes(table: string): Set<number> {
  const out = new Set<number>();
  for (const line of table.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length >= 7 && f[5] === '03') out.add(Number(f[6]));
  }
  return out;
}

export interface ProveOptions {
  procRoot?: string;
  uid?: number;
}

/** The pid of the pane process the caller runs under, or null (outside any pane, or not provable). */
export async function paneProcessOf(pid: number, panePids: ReadonlySet<number>, o: ProveOptions = {}): Promise<number | null> {
  const root = o.procRoot ?? '/proc';
  const uid = o.uid ?? process.getuid?.() ?? -1;
  const status = await small(join(root, String(pid), 'status'));
  if (status === null || uidOf(status) !== uid) return null;
  if (!(await holdsConnectedSocket(root, pid))) return null;
  let cur = pid;
  for (let depth = 0; depth < MAX_DEPTH && cur > 1; depth++) {
    if (panePids.has(cur)) return cur;
    const stat = await small(join(root, String(cur), 'stat'));
    const parsed = stat === null ? null : parseStat(stat);
    if (!parsed) return null;
    cur = parsed.ppid;
  }
  return null;
}

async function holdsConnectedSocket(root: string, pid: number): Promise<boolean> {
  const dir = join(root, String(pid), 'fd');
  let fds: string[];
  try {
    fds = await readdir(dir);
  } catch {
    return false;
  }
  const mine: number[] = [];
  for (const fd of fds) {
    const link = await readlink(join(dir, fd)).catch(() => '');
    const m = /^socket:\[(\d+)\]$/.exec(link);
    if (m) mine.push(Number(m[1]));
  }
  if (mine.length === 0) return false;
  // Read whole: the table grows past any small buffer on a busy machine.
  const table = await readFile(join(root, 'net', 'unix'), 'utf8').catch(() => null);
  if (table === null) return false;
  const connected = connectedUnixInodes(table);
  return mine.some((i) => connected.has(i));
}
