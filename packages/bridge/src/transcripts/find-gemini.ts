import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { AgentProcess, Finding } from './finding';
import { pickSession, sessionsIn } from './find-unheld';

/**
 * Gemini CLI 0.61 writes a session to `<gemini dir>/tmp/<project>/chats/session-<time>-<id8>.jsonl`,
 * where the gemini dir is `$GEMINI_CLI_HOME/.gemini` (else `$HOME/.gemini`) and the project is
 * the folder's short name in `<gemini dir>/projects.json` (older versions: the SHA-256 of the
 * folder). It appends each record and closes the file again; the first line carries the
 * session's `sessionId` and `startTime`. `/clear` starts a new file in the same process;
 * `--resume` appends to an earlier one.
 */
const SESSION = /^session-.*\.jsonl$/;

function geminiDir(p: AgentProcess): string | null {
  const home = p.env.GEMINI_CLI_HOME || p.env.HOME;
  return home ? join(home, '.gemini') : null;
}

/** The folder of the process's chats, or null when its config cannot be read. */
export async function geminiChats(p: AgentProcess): Promise<string | null> {
  const dir = geminiDir(p);
  if (!dir || !p.cwd) return null;
  let project: unknown;
  try {
    project = (JSON.parse(await readFile(join(dir, 'projects.json'), 'utf8')) as { projects?: Record<string, unknown> }).projects?.[p.cwd];
  } catch {
    project = undefined;
  }
  const id = typeof project === 'string' && /^[^/\\]+$/.test(project) && project !== '..' ? project : createHash('sha256').update(p.cwd).digest('hex');
  return join(dir, 'tmp', id, 'chats');
}

function head(json: unknown): { started: number; session: string | null } | null {
  if (json === null || typeof json !== 'object') return null;
  const { sessionId, startTime } = json as { sessionId?: unknown; startTime?: unknown };
  if (typeof sessionId !== 'string' || typeof startTime !== 'string') return null;
  return { started: Date.parse(startTime), session: sessionId };
}

export async function findGemini(p: AgentProcess, others: () => Promise<AgentProcess[]>): Promise<Finding> {
  const chats = await geminiChats(p);
  const dir = geminiDir(p);
  if (!chats || !dir) return { found: false, reason: 'Gemini CLI runs without a home or folder Collie can find.', watch: [] };
  const files = await sessionsIn(chats, SESSION, head);
  const rivals: AgentProcess[] = [];
  for (const o of await others()) if ((await geminiChats(o)) === chats) rivals.push(o);
  return pickSession('Gemini CLI', p, files, rivals, [chats, dir]);
}
