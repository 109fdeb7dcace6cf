import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { AgentProcess, Finding } from './finding';

/**
 * Claude Code keeps a registry of its running sessions, `<config>/sessions/<pid>.json`, and
 * rewrites it when the session changes (`/clear`, a resume): its `sessionId` names the
 * transcript `<config>/projects/<slug of cwd>/<sessionId>.jsonl`. The config dir is the
 * process's own `CLAUDE_CONFIG_DIR`, else `$HOME/.claude`. `procStart` (the kernel's start
 * time of the process) tells a live entry from a stale one of an earlier process with the
 * same pid. Verified on Claude Code 2.1.334. Each of these shows in the folders watched:
 * the registry is written when a session starts or changes, the transcript when its first
 * line is, so a pane not found yet needs no look on a timer (`watchSuffices`).
 */
const Registry = z.object({ pid: z.number().optional(), sessionId: z.string().regex(/^[A-Za-z0-9-]{1,100}$/), cwd: z.string().optional(), procStart: z.string().optional() }).passthrough();

/** The CLI names a project folder by its path with every other character than a letter or digit as `-`. */
export function projectSlug(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

export async function findClaude(p: AgentProcess): Promise<Finding> {
  const config = p.env.CLAUDE_CONFIG_DIR || (p.env.HOME ? join(p.env.HOME, '.claude') : null);
  if (!config) return { found: false, reason: 'Claude Code runs without a config dir Collie can find.', watch: [] };
  const sessions = join(config, 'sessions');
  let registry: z.infer<typeof Registry>;
  try {
    const parsed = Registry.safeParse(JSON.parse(await readFile(join(sessions, `${p.pid}.json`), 'utf8')));
    if (!parsed.success) return { found: false, reason: 'Claude Code’s session registry has a shape Collie does not know.', watch: [sessions], watchSuffices: true };
    registry = parsed.data;
  } catch {
    return { found: false, reason: 'Claude Code has not registered this session (a version without sessions/<pid>.json?).', watch: [sessions], watchSuffices: true };
  }
  if (registry.procStart !== undefined && p.startTime !== null && registry.procStart !== String(p.startTime)) {
    return { found: false, reason: 'Claude Code’s session registry names an earlier process.', watch: [sessions], watchSuffices: true };
  }
  const file = `${registry.sessionId}.jsonl`;
  const projects = join(config, 'projects');
  const cwd = registry.cwd ?? p.cwd;
  const home = cwd ? join(projects, projectSlug(cwd)) : null;
  if (home && (await exists(join(home, file)))) return { found: true, path: join(home, file), session: registry.sessionId, watch: [sessions, home] };
  // A slug the CLI made another way (a long path is hashed): the session id is unique, look for it.
  for (const dir of await readdir(projects).catch(() => [] as string[])) {
    if (await exists(join(projects, dir, file))) return { found: true, path: join(projects, dir, file), session: registry.sessionId, watch: [sessions, join(projects, dir)] };
  }
  return { found: false, reason: 'No conversation in this Claude session yet.', watch: [sessions, ...(home ? [home] : []), projects], watchSuffices: true };
}
