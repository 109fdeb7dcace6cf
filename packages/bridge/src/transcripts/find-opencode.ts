import { type FileHandle, open, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AgentProcess, Finding } from './finding';
import { type SessionFile, pickSession } from './find-unheld';
import { openReadOnly } from './opencode-db';

/**
 * OpenCode 1.18 keeps every session of a user in one SQLite database,
 * `<data>/opencode.db` (`$XDG_DATA_HOME/opencode`, else `$HOME/.local/share/opencode`), which
 * every running OpenCode holds open. A session row names its folder (`directory`) and, for a
 * sub-agent's, its parent (`parent_id`). What tells one process's session from another's in
 * the same folder is OpenCode's log, `<data>/log/opencode.log`: every process appends to it
 * (its descriptor is opened `O_APPEND`, so the kernel keeps that descriptor's position at the
 * end of the last line that process wrote: `pos` in `/proc/<pid>/fdinfo/<fd>`), and every
 * line carries the process's `run=<id>`, lines about a session its `session.id=ses_…` (or
 * `created id=ses_…` when it made one). So: the line ending at the process's own log position
 * names its run, and the last session that run wrote about is the pane's. Failing that
 * (logging turned down or elsewhere), `-s/--session <id>` on its command line, else sessions
 * of its folder by time, as for the agents that keep no file open (`find-unheld.ts`).
 */

const SESSION_ID = /^ses_[A-Za-z0-9]{1,64}$/;
/** A log line longer than this is not one of the lines read here. */
const LINE_MAX = 64 * 1024;
/** How far back from its last line a process's log is searched for the session it wrote about. */
const LOG_BACK = 8 * 1024 * 1024;
const CHUNK = 256 * 1024;

/** OpenCode's data folder for this process: the folder of the database it holds open, else where its environment puts it. */
export function opencodeData(p: AgentProcess): string | null {
  const held = p.files.find((f) => f.endsWith('/opencode/opencode.db'));
  if (held) return dirname(held);
  const data = p.env.XDG_DATA_HOME || (p.env.HOME ? join(p.env.HOME, '.local', 'share') : null);
  return data ? join(data, 'opencode') : null;
}

function argOf(argv: readonly string[], ...flags: string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    for (const f of flags) {
      if (a === f && i + 1 < argv.length) return argv[i + 1] ?? null;
      if (a.startsWith(`${f}=`)) return a.slice(f.length + 1);
    }
  }
  return null;
}

/** The position of each of the process's descriptors on `log`, from `/proc/<pid>/fdinfo`. */
async function logPositions(procRoot: string, pid: number, fds: readonly number[]): Promise<number[]> {
  const out: number[] = [];
  for (const fd of fds) {
    const info = await readFile(join(procRoot, String(pid), 'fdinfo', String(fd)), 'utf8').catch(() => '');
    const m = /^pos:\s+(\d+)$/m.exec(info);
    if (m) out.push(Number(m[1]));
  }
  return out;
}

async function readAt(fh: FileHandle, from: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, from);
  return buf.subarray(0, bytesRead);
}

/** The run id of the line holding byte `pos - 1` of the log (the last line written through that descriptor). */
export async function runAt(fh: FileHandle, pos: number): Promise<string | null> {
  if (pos <= 0) return null;
  const from = Math.max(0, pos - LINE_MAX);
  const buf = await readAt(fh, from, pos - from);
  const end = buf.length > 0 && buf[buf.length - 1] === 10 ? buf.length - 1 : buf.length;
  const start = buf.lastIndexOf(10, end - 1) + 1;
  const line = buf.toString('utf8', start, end);
  return / run=([0-9a-f]{4,32}) /.exec(line)?.[1] ?? null;
}

/** Session ids the lines of `run` name, newest first, reading back from `pos`. */
export async function sessionsOfRun(fh: FileHandle, pos: number, run: string): Promise<string[]> {
  const found: string[] = [];
  const mark = ` run=${run} `;
  let at = pos;
  let carry = '';
  while (at > 0 && pos - at < LOG_BACK) {
    const from = Math.max(0, at - CHUNK);
    const text = (await readAt(fh, from, at - from)).toString('utf8') + carry;
    const lines = text.split('\n');
    // Unless at the start, the first piece is the end of a line begun earlier: kept for the next chunk.
    carry = from > 0 ? (lines.shift() ?? '') : '';
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i]!;
      if (!line.includes(mark)) continue;
      const id = / session\.id=(ses_[A-Za-z0-9]+)/.exec(line)?.[1] ?? (/ message=created id=(ses_[A-Za-z0-9]+)/.exec(line)?.[1] ?? null);
      if (id && !found.includes(id)) found.push(id);
    }
    if (found.length > 0) return found;
    at = from;
  }
  return found;
}

interface SessionRow {
  id: string;
  directory: string;
  parent: string | null;
  created: number;
  updated: number;
}

function sessionRows(db: string, where: string, ...params: unknown[]): SessionRow[] {
  const conn = openReadOnly(db);
  try {
    const rows = conn.prepare(`SELECT id, directory, parent_id AS parent, time_created AS created, time_updated AS updated FROM session WHERE ${where}`).all(...params) as unknown[];
    return rows.flatMap((r) => {
      const o = r as Record<string, unknown>;
      return typeof o.id === 'string' && typeof o.directory === 'string'
        ? [{ id: o.id, directory: o.directory, parent: typeof o.parent === 'string' ? o.parent : null, created: Number(o.created), updated: Number(o.updated) }]
        : [];
    });
  } finally {
    conn.close();
  }
}

/** The top session of `id` (a sub-agent's session belongs to the conversation that started it). */
function rootOf(db: string, id: string): SessionRow | null {
  let row = sessionRows(db, 'id = ?', id)[0] ?? null;
  for (let hops = 0; row?.parent && hops < 16; hops++) row = sessionRows(db, 'id = ?', row.parent)[0] ?? row;
  return row;
}

/** The session the process's own log lines last named, or null when its log cannot say. */
async function fromLog(p: AgentProcess, data: string, db: string, procRoot: string): Promise<SessionRow | null> {
  const log = join(data, 'log');
  const fds = p.fds.filter((f) => f.path.startsWith(`${log}/`) && f.path.endsWith('.log'));
  const path = fds[0]?.path;
  if (!path) return null;
  const positions = await logPositions(procRoot, p.pid, fds.filter((f) => f.path === path).map((f) => f.fd));
  const pos = Math.max(0, ...positions);
  let fh: FileHandle | null = null;
  try {
    fh = await open(path, 'r');
    if (pos > (await fh.stat()).size) return null;
    const run = await runAt(fh, pos);
    if (!run) return null;
    for (const id of await sessionsOfRun(fh, pos, run)) {
      const root = rootOf(db, id);
      if (root) return root;
    }
    return null;
  } catch {
    return null;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

export async function findOpencode(p: AgentProcess, others: () => Promise<AgentProcess[]>, procRoot = '/proc'): Promise<Finding> {
  const data = opencodeData(p);
  if (!data) return { found: false, reason: 'OpenCode runs without a home Collie can find.', watch: [] };
  const db = join(data, 'opencode.db');
  const log = join(data, 'log');
  // A new session shows in the log first (`created id=…`); the follower watches the database itself.
  const watch = [log];
  if (!(await stat(db).then((s) => s.isFile(), () => false))) return { found: false, reason: 'No conversation in this OpenCode session yet.', watch: [data] };
  try {
    const mine = await fromLog(p, data, db, procRoot);
    if (mine) return { found: true, path: db, session: mine.id, watch };
    const named = argOf(p.argv, '-s', '--session');
    if (named !== null && SESSION_ID.test(named)) {
      const root = rootOf(db, named);
      if (root) return { found: true, path: db, session: root.id, watch };
    }
    if (!p.cwd) return { found: false, reason: 'Collie cannot read this OpenCode’s folder.', watch };
    const files: SessionFile[] = sessionRows(db, 'directory = ? AND parent_id IS NULL', p.cwd).map((s) => ({ path: db, started: s.created, session: s.id, modified: s.updated }));
    const rivals: AgentProcess[] = [];
    for (const o of await others()) if (opencodeData(o) === data && o.cwd === p.cwd) rivals.push(o);
    return pickSession('OpenCode', p, files, rivals, watch);
  } catch {
    return { found: false, reason: 'OpenCode’s database could not be read.', watch };
  }
}
