import { basename, isAbsolute, join, resolve } from 'node:path';
import type { AgentProcess, Finding } from './finding';
import { pickSession, sessionsIn } from './find-unheld';

/**
 * pi 0.73 writes a session to `<agent dir>/sessions/--<cwd, / as ->--/<time>_<id>.jsonl` (the
 * agent dir is `$PI_CODING_AGENT_DIR`, else `$HOME/.pi/agent`; `--session-dir` or
 * `$PI_CODING_AGENT_SESSION_DIR` put it elsewhere). It appends each entry and closes the file
 * again, and writes nothing until the first answer; the first line is the `session` header
 * with its `id` and `timestamp`. `/new` starts a new file in the same process; `--session
 * <file or id>` names the file; `-c` / `-r` resume an earlier one (appended to from then on).
 * pi sets its process title, which overwrites its command line in /proc: its flags are read
 * only while they are still there.
 */
const SESSION = /\.jsonl$/;

function argOf(argv: readonly string[], flag: string): string | null {
  const i = argv.indexOf(flag);
  return i >= 0 && i + 1 < argv.length ? (argv[i + 1] ?? null) : null;
}

/** The folder the process writes its sessions to, or null when it cannot be told. */
export function piSessions(p: AgentProcess): string | null {
  const own = argOf(p.argv, '--session-dir') ?? (p.env.PI_CODING_AGENT_SESSION_DIR || null);
  if (own) return isAbsolute(own) ? own : p.cwd ? resolve(p.cwd, own) : null;
  const agent = p.env.PI_CODING_AGENT_DIR || (p.env.HOME ? join(p.env.HOME, '.pi', 'agent') : null);
  if (!agent || !p.cwd) return null;
  return join(agent, 'sessions', `--${p.cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`);
}

function head(json: unknown): { started: number; session: string | null } | null {
  if (json === null || typeof json !== 'object') return null;
  const { type, id, timestamp } = json as { type?: unknown; id?: unknown; timestamp?: unknown };
  if (type !== 'session' || typeof timestamp !== 'string') return null;
  return { started: Date.parse(timestamp), session: typeof id === 'string' ? id : null };
}

export async function findPi(p: AgentProcess, others: () => Promise<AgentProcess[]>): Promise<Finding> {
  const dir = piSessions(p);
  if (!dir) return { found: false, reason: 'pi runs without a home or folder Collie can find.', watch: [] };
  const named = argOf(p.argv, '--session');
  if (named !== null && named.endsWith('.jsonl')) {
    const path = isAbsolute(named) ? named : resolve(p.cwd ?? '/', named);
    return { found: true, path, session: basename(path, '.jsonl').split('_').at(-1) ?? null, watch: [dir] };
  }
  const files = await sessionsIn(dir, SESSION, head);
  // `--session <id>`: the file of that session (a resumed one started before the process).
  const byId = named === null ? undefined : files.find((f) => f.session?.startsWith(named) || basename(f.path).includes(named));
  if (byId) return { found: true, path: byId.path, session: byId.session, watch: [dir] };
  const rivals: AgentProcess[] = [];
  for (const o of await others()) if (piSessions(o) === dir) rivals.push(o);
  // pi makes its sessions folder at start: until then, watch the one above.
  return pickSession('pi', p, files, rivals, [dir, join(dir, '..')]);
}
