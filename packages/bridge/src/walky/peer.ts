/**
 * Which pane a socket call comes from, proved by the bridge, never taken from the request.
 *
 * Node has no SO_PEERCRED, so the caller names its pid and the bridge proves the claim
 * against the connection itself: the inode of the bridge's end of this connection (from
 * `/proc/self/fd`), the inode of the caller's end (the connected pair, as `ss -x` reads it
 * from the kernel's socket table), and the claimed process must hold that very inode in
 * its own `/proc/<pid>/fd`. Only then does the bridge walk the claimed process's ancestry
 * up to a pane's process. A process that names another pane's pid, pid 1 or another user's
 * process is refused with the reason (`not_proved`).
 */
import { execFile } from 'node:child_process';
import { access, constants, mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fdLinksOf, linkOf, parseStat, readQuick, readSmall } from '../procs';

/** How far up the ancestry a caller may sit below its pane (agent → shell → tool → collie). */
const MAX_DEPTH = 64;

/** A small /proc file (`status`), or null when it cannot be read. */
function small(path: string): Promise<string | null> {
  return readSmall(path, 8192).catch(() => null);
}

/** The real uid of a process (`Uid:` in /proc/<pid>/status), or null. */
export function uidOf(status: string): number | null {
  const m = /^Uid:\s+(\d+)/m.exec(status);
  return m ? Number(m[1]) : null;
}

/** The inode of a socket fd link (`socket:[1234]`), or null. */
export function socketInode(link: string): number | null {
  const m = /^socket:\[(\d+)\]$/.exec(link);
  return m ? Number(m[1]) : null;
}

/**
 * The peer inode of the unix socket `local` in `ss -xHn` output, or null. A line is
 * `u_str ESTAB 0 0 <path> <inode> <peer path or *> <peer inode>`; paths may hold spaces, so
 * the line is read from both ends: the local inode is found right after the socket's own
 * path, the peer's inode is the line's last field.
 */
export function peerFromSs(out: string, path: string, local: number): number | null {
  const mark = ` ${path} ${local} `;
  for (const line of out.split('\n')) {
    const at = line.indexOf(mark);
    if (at < 0) continue;
    const fields = line.slice(at + mark.length).trim().split(/\s+/);
    const last = fields[fields.length - 1] ?? '';
    if (fields.length >= 2 && /^\d+$/.test(last) && Number(last) > 0) return Number(last);
    return null;
  }
  return null;
}

/** Where `ss` is when `PATH` lacks it (it is often in sbin, outside a user's PATH). */
export const SS_DIRS: readonly string[] = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];

/** Where `ss` is (iproute2), or null. Looked up once per bridge, and by `collie doctor`. */
export async function findSs(env: NodeJS.ProcessEnv = process.env, also: readonly string[] = SS_DIRS): Promise<string | null> {
  const dirs = [...(env.PATH ?? '').split(delimiter).filter(Boolean), ...also];
  for (const d of dirs) {
    const p = join(d, 'ss');
    if (await access(p, constants.X_OK).then(() => true, () => false)) return p;
  }
  return null;
}

/** One run of `ss -xHn`: the table of unix sockets, or null when it failed. */
export function runSs(bin: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(bin, ['-xHn'], { encoding: 'utf8', timeout: 5_000, maxBuffer: 16 * 1024 * 1024 }, (err, out) => resolve(err ? null : out));
  });
}

/** The table of unix sockets as read at some moment after the call. */
export type SsTable = () => Promise<string | null>;

/**
 * One `ss` run at a time for every proof in flight. A call joins the next run that starts after
 * it (a run already under way may have read the table before this connection was in it), so
 * every answer holds the caller's connection, and a burst of calls costs a few runs, not one a
 * call (100 at once: about 20): a bridge restarted under load was asked again by every waiting
 * sender at once, and a process each took proofs up to 10 s (docs/benchmarks.md, "The walky
 * proof in a burst").
 */
export function ssTable(bin: string, run: (bin: string) => Promise<string | null> = runSs): SsTable {
  let running: Promise<string | null> | null = null;
  let next: Promise<string | null> | null = null;
  const start = (): Promise<string | null> => {
    const p = run(bin);
    running = p;
    const done = () => {
      if (running === p) running = null;
    };
    p.then(done, done);
    return p;
  };
  return () => {
    if (next) return next;
    if (!running) return start();
    const after = (): Promise<string | null> => {
      next = null;
      return start();
    };
    next = running.then(after, after);
    return next;
  };
}

/** What the proof needs of the accepted connection. */
export interface Peer {
  /** The inode of the caller's end of this connection, or the reason it cannot be known. */
  inode: number | null;
  why?: string;
}

/** The caller's end of an accepted connection on the socket at `path`: `/proc/self/fd` and `ss`. */
export async function peerOf(conn: Socket, path: string, ss: SsTable | null): Promise<Peer> {
  const fd = (conn as unknown as { _handle?: { fd?: number } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) return { inode: null, why: 'walky: the connection has no descriptor to prove the caller by' };
  const local = socketInode((await linkOf(`/proc/self/fd/${fd}`)) ?? '');
  if (local === null) return { inode: null, why: 'walky: cannot prove the calling pane on this host (needs /proc)' };
  if (!ss) return { inode: null, why: 'walky: cannot prove the calling pane: ss (iproute2) is not installed' };
  const out = await ss();
  if (out === null) return { inode: null, why: 'walky: cannot prove the calling pane: ss failed' };
  const inode = peerFromSs(out, path, local);
  return inode === null ? { inode: null, why: 'walky: the caller closed the connection before it was proved' } : { inode };
}

export interface ProveOptions {
  procRoot?: string;
  uid?: number;
}

/** The pane process a proved caller runs under (null: outside any pane), or why the claim is refused. */
export type Proof = { panePid: number | null } | { refused: string };

/**
 * Prove that process `pid` is the caller (it holds `peer`, the caller's end of this very
 * connection, and belongs to this user), then find the pane process it runs under.
 */
export async function proveCaller(pid: number, peerOfConn: Peer | Promise<Peer>, panePids: ReadonlySet<number>, o: ProveOptions = {}): Promise<Proof> {
  const root = o.procRoot ?? '/proc';
  const uid = o.uid ?? process.getuid?.() ?? -1;
  // The caller's end of the connection (a spawn of ss) and the claimed process, read side by side.
  const [peer, status, links] = await Promise.all([peerOfConn, small(join(root, String(pid), 'status')), fdLinksOf(join(root, String(pid)))]);
  if (peer.inode === null) return { refused: peer.why ?? 'walky: the caller cannot be proved' };
  if (status === null) return { refused: `walky: no process ${pid} on this machine` };
  if (uidOf(status) !== uid) return { refused: `walky: process ${pid} is not yours` };
  if (!links.some((l) => socketInode(l.link) === peer.inode)) {
    return { refused: `walky: process ${pid} did not open this connection; the caller names its own pid, and the bridge proves its pane from it` };
  }
  let cur = pid;
  for (let depth = 0; depth < MAX_DEPTH && cur > 1; depth++) {
    if (panePids.has(cur)) return { panePid: cur };
    const stat = await readQuick(join(root, String(cur), 'stat')).catch(() => null);
    const parsed = stat === null ? null : parseStat(stat);
    if (!parsed) return { panePid: null };
    cur = parsed.ppid;
  }
  return { panePid: null };
}

/**
 * The proof made once end to end, as the bridge makes it for every call: this process opens a
 * connection to a socket of its own (in a fresh 0700 temp folder), and `peerOf` and
 * `proveCaller` must prove that this process holds the other end. `collie doctor`'s
 * `walky-proof` row; the reason is the very one the bridge would answer (`not_proved`).
 */
export async function selfProof(ss: string | null): Promise<{ ok: true } | { ok: false; why: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'collie-proof-'));
  const path = join(dir, 'sock');
  const server = createServer();
  let client: Socket | null = null;
  let conn: Socket | null = null;
  try {
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, resolve);
    });
    const c = connect(path);
    client = c;
    await new Promise<void>((resolve, reject) => {
      c.once('connect', resolve);
      c.once('error', reject);
    });
    conn = await accepted;
    const proof = await proveCaller(process.pid, peerOf(conn, path, ss === null ? null : ssTable(ss)), new Set());
    return 'refused' in proof ? { ok: false, why: proof.refused } : { ok: true };
  } catch (err) {
    return { ok: false, why: `walky: cannot open a test socket in ${dir}: ${(err as Error).message}` };
  } finally {
    client?.destroy();
    conn?.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  }
}
