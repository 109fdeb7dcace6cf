import { homedir } from 'node:os';
import { HARNESSES, formatLines, formatStatus, installSkill, skillStatus, syncAfterUpdate, syncSkill, uninstallSkill, type HarnessName, type SkillContext } from '../skill';
import { configOrThrow } from './config';
import { cliBin } from './paths';

export interface SkillCommand {
  verb: 'sync' | 'install' | 'uninstall' | 'status';
  harness?: string;
  dryRun?: boolean;
  json?: boolean;
  check?: boolean;
}

export function skillContext(env: NodeJS.ProcessEnv, dryRun = false): SkillContext {
  const config = configOrThrow(env);
  return { home: env.HOME || homedir(), env, stateDir: config.stateDir, bin: cliBin, instance: config.instance, dryRun };
}

/** `collie skill …`: what to print and the exit code (1 when a file was refused, 3 for a stale copy with --check). */
export async function skill(cmd: SkillCommand, env: NodeJS.ProcessEnv = process.env): Promise<{ out: string; code: number }> {
  const c = skillContext(env, cmd.dryRun ?? false);
  if (cmd.verb === 'status') {
    const rows = await skillStatus(c);
    if (cmd.check) return { out: '', code: rows.some((r) => r.status === 'stale') ? 3 : 0 };
    return { out: cmd.json ? JSON.stringify(rows) : formatStatus(rows), code: 0 };
  }
  let which: HarnessName | 'all' = 'all';
  if (cmd.verb !== 'sync') {
    const h = HARNESSES.find((x) => x === cmd.harness) ?? (cmd.harness === 'all' ? 'all' : null);
    if (h === null) return { out: `collie skill ${cmd.verb}: name a harness (${HARNESSES.join(', ')}) or all`, code: 2 };
    which = h;
  }
  const lines = cmd.verb === 'sync' ? await syncSkill(c) : cmd.verb === 'install' ? await installSkill(c, which) : await uninstallSkill(c, which);
  const code = lines.some((l) => l.action === 'refused') ? 1 : 0;
  return { out: cmd.json ? JSON.stringify(lines) : formatLines(lines, c.dryRun ?? false), code };
}

/**
 * `collie update`: the step after a build is installed on this machine (this build installs
 * from its checkout, so the build itself comes from `git pull && npm ci && npm run build`):
 * the skill brought up to date in every harness found, one line per file changed or refused;
 * with COLLIE_SKILL_SYNC=off nothing written and one note when an installed copy is behind.
 */
export async function update(opts: { dryRun?: boolean; json?: boolean }, env: NodeJS.ProcessEnv = process.env): Promise<{ out: string; code: number }> {
  const c = skillContext(env, opts.dryRun ?? false);
  const got = await syncAfterUpdate(c, !configOrThrow(env).skillSync);
  if (typeof got === 'string') return { out: opts.json ? JSON.stringify([{ action: 'note', detail: got }]) : got, code: 0 };
  const code = got.some((l) => l.action === 'refused') ? 1 : 0;
  return { out: opts.json ? JSON.stringify(got) : formatLines(got, c.dryRun ?? false), code };
}
