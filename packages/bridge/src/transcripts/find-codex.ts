import { stat } from 'node:fs/promises';
import type { AgentProcess, Finding } from './finding';

/**
 * Codex writes its session to a rollout file it holds open for the whole session
 * (`<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`); a new session (`/new`, a
 * resume) opens another. So the file is the one among the agent's open files: never the
 * newest in the folder, which may be another pane's. Verified on Codex 0.171 with its
 * app-server in-process; a shared app-server daemon holds every session's file, and is not
 * read here.
 */
const ROLLOUT = /\/sessions\/(?:[^/]+\/)*rollout-[^/]*?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/;

export async function findCodex(p: AgentProcess): Promise<Finding> {
  const open = p.files.filter((f) => ROLLOUT.test(f));
  if (open.length === 0) return { found: false, reason: 'No conversation in this Codex session yet.', watch: [] };
  // Two open at once only while a session hands over to the next: the last written is current.
  const times = await Promise.all(open.map((f) => stat(f).then((s) => s.mtimeMs, () => -1)));
  const best = open[times.indexOf(Math.max(...times))] ?? open[0]!;
  return { found: true, path: best, session: ROLLOUT.exec(best)?.[1] ?? null, watch: [] };
}
