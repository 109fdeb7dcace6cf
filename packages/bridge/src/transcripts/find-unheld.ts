import { type FileHandle, open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentProcess, Finding } from './finding';

/**
 * Gemini CLI and pi append to their session file and close it again (`appendFileSync`), so
 * the file is not among the agent's open files, and neither writes a registry of its running
 * sessions. What is left is time: a session file starts (its first line says when) after the
 * process that writes it started. So a pane's transcript is the newest session in its folder
 * that started since its agent did and before any other process of the same agent in the same
 * folder started; a session either could have started is never guessed at.
 */

/** A session file and what its first line says. */
export interface SessionFile {
  readonly path: string;
  /** Epoch ms the session started. */
  readonly started: number;
  readonly session: string | null;
  /** Epoch ms of its last write. */
  readonly modified: number;
}

/** The process clock (10 ms ticks) and the boot time (whole seconds) leave this much doubt. */
const SLACK_MS = 1000;
/** A first line longer than this is not a session header. */
const HEAD_MAX = 64 * 1024;

async function firstLine(path: string): Promise<string> {
  let fh: FileHandle | null = null;
  try {
    fh = await open(path, 'r');
    const buf = Buffer.allocUnsafe(HEAD_MAX);
    const { bytesRead } = await fh.read(buf, 0, HEAD_MAX, 0);
    const nl = buf.subarray(0, bytesRead).indexOf(10);
    return nl < 0 ? '' : buf.toString('utf8', 0, nl);
  } catch {
    return '';
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** The session files in `dir` whose names match `name`, with the start and id their first line gives (`head`); others are left out. */
export async function sessionsIn(dir: string, name: RegExp, head: (json: unknown) => { started: number; session: string | null } | null): Promise<SessionFile[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => name.test(n));
  const files = await Promise.all(
    names.map(async (n) => {
      const path = join(dir, n);
      let json: unknown;
      try {
        json = JSON.parse(await firstLine(path));
      } catch {
        return null;
      }
      const h = head(json);
      const modified = await stat(path).then((st) => st.mtimeMs, () => NaN);
      return h && Number.isFinite(h.started) && Number.isFinite(modified) ? { path, ...h, modified } : null;
    }),
  );
  return files.filter((f): f is SessionFile => f !== null);
}

/**
 * The pane's session among `files`: the newest that started since `p` did while none of
 * `rivals` (other processes of the agent writing to the same folder) ran yet, so that only `p`
 * can have started it. A newer session either could have started is not taken (the pane then
 * keeps the session it surely wrote); with none but those, the pane says it cannot tell.
 * With no session started since, the agent may have resumed an earlier one (it appends to that
 * file; its flags are not always readable, pi rewrites its command line as its title): the file
 * written last since the start, while no rival runs at all.
 */
export function pickSession(agent: string, p: AgentProcess, files: readonly SessionFile[], rivals: readonly AgentProcess[], watch: readonly string[]): Finding {
  if (p.startedAt === null) return { found: false, reason: `Collie cannot read when this ${agent} started.`, watch: [] };
  const since = p.startedAt - SLACK_MS;
  const mine = files.filter((f) => f.started >= since).sort((a, b) => a.started - b.started || a.path.localeCompare(b.path));
  const cannot = { found: false as const, reason: `Another ${agent} writes to this folder’s sessions: Collie cannot tell which transcript is this pane’s.`, watch };
  if (mine.length === 0) {
    const written = files.filter((f) => f.modified >= since).sort((a, b) => a.modified - b.modified).at(-1);
    if (!written) return { found: false, reason: `No conversation in this ${agent} session yet.`, watch };
    return rivals.length > 0 ? cannot : { found: true, path: written.path, session: written.session, watch };
  }
  const shared = (f: SessionFile) => rivals.some((r) => r.startedAt === null || r.startedAt <= f.started + SLACK_MS);
  const sure = mine.filter((f) => !shared(f)).at(-1);
  if (!sure) return cannot;
  return { found: true, path: sure.path, session: sure.session, watch };
}
