import { homedir } from 'node:os';
import { HARNESSES, formatLines, formatStatus, installSkill, skillStatus, syncSkill, uninstallSkill, type HarnessName, type SkillContext } from '../skill';
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
