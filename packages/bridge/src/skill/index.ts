/** The walky talky skill in agents' instruction files: sync, install, uninstall, status (one entry). */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ensureStateDir, writeFileAtomic } from '../config';
import { backupOnce, exists, readState, removeFile, writeText } from './files';
import { installBlock, installWhole, removeBlock, removeWhole, statusOf, type Status, type Step } from './plan';
import { HARNESSES, targetsOf, type Env, type HarnessName, type Target } from './targets';
import { claudeSkillFile, skillBlock, walkyCommand } from './text';

export { HARNESSES, type HarnessName } from './targets';

export interface SkillContext {
  home: string;
  env: Env;
  stateDir: string;
  /** The collie binary the skill names, and the instance it belongs to. */
  bin: string;
  instance: string | null;
  dryRun?: boolean;
}

/** One line of a result: what happened (or would) to one file. */
export interface SkillLine {
  harness: HarnessName;
  file: string;
  action: 'installed' | 'updated' | 'removed' | 'cut' | 'refused' | 'note';
  detail?: string;
}

export interface StatusRow {
  harness: HarnessName;
  file: string;
  status: Status;
  reason?: string;
}

const Record_ = z.object({ version: z.literal(1), uninstalled: z.array(z.enum(HARNESSES)) });
const recordPath = (c: SkillContext) => join(c.stateDir, 'skill.json');

async function uninstalled(c: SkillContext): Promise<Set<HarnessName>> {
  try {
    const parsed = Record_.safeParse(JSON.parse(await readFile(recordPath(c), 'utf8')));
    return new Set(parsed.success ? parsed.data.uninstalled : []);
  } catch {
    return new Set();
  }
}

async function remember(c: SkillContext, set: Set<HarnessName>): Promise<void> {
  if (c.dryRun) return;
  await ensureStateDir(c.stateDir);
  await writeFileAtomic(recordPath(c), JSON.stringify({ version: 1, uninstalled: [...set].sort() }), 0o600);
}

async function targets(c: SkillContext, h: HarnessName): Promise<Target[]> {
  const entries = await readdir(c.home).catch(() => [] as string[]);
  return targetsOf(h, c.home, c.env, entries);
}

async function found(c: SkillContext, h: HarnessName): Promise<Target[]> {
  const all = await targets(c, h);
  const here = await Promise.all(all.map((t) => exists(t.configDir)));
  return all.filter((_, i) => here[i]);
}

const want = (c: SkillContext, t: Target) => {
  const cmd = walkyCommand(c.bin, c.instance);
  return t.whole ? claudeSkillFile(cmd) : skillBlock(cmd);
};

/** Carry out one step (or only say it, with --dry-run). */
async function apply(c: SkillContext, t: Target, step: Step, out: SkillLine[]): Promise<void> {
  const line = (action: SkillLine['action'], detail?: string): void => {
    out.push({ harness: t.harness, file: t.file, action, ...(detail ? { detail } : {}) });
  };
  switch (step.do) {
    case 'none':
      return;
    case 'refuse':
      return line('refused', step.reason);
    case 'write':
      if (!c.dryRun) {
        if (!step.created) await backupOnce(t.file);
        await writeText(t.file, step.text);
      }
      return line(step.created ? 'installed' : 'updated');
    case 'remove':
      if (!c.dryRun) {
        await backupOnce(t.file);
        await removeFile(t.file);
      }
      return line(t.whole ? 'removed' : 'cut');
  }
}

/** `always`: the override note even when the file was current (a named install); a sync notes it only with a change. */
async function install(c: SkillContext, t: Target, out: SkillLine[], always = false): Promise<void> {
  const state = await readState(t.file);
  const before = out.length;
  await apply(c, t, t.whole ? installWhole(state, want(c, t)) : installBlock(state, want(c, t)), out);
  const changed = out.length > before;
  if ((always || changed) && t.override && (await exists(t.override))) {
    out.push({ harness: t.harness, file: t.override, action: 'note', detail: `${t.harness} reads this file instead of ${t.file}, so the block there is ignored` });
  }
}

/** `collie skill sync`: every harness found here, but those uninstalled, brought up to date. */
export async function syncSkill(c: SkillContext): Promise<SkillLine[]> {
  const out: SkillLine[] = [];
  const off = await uninstalled(c);
  for (const h of HARNESSES) if (!off.has(h)) for (const t of await found(c, h)) await install(c, t, out);
  return out;
}

/** `collie skill install <harness|all>`: a named harness gets its file even if not found. */
export async function installSkill(c: SkillContext, which: HarnessName | 'all'): Promise<SkillLine[]> {
  const out: SkillLine[] = [];
  const off = await uninstalled(c);
  const names = which === 'all' ? [...HARNESSES] : [which];
  for (const h of names) {
    const list = which === 'all' ? await found(c, h) : await targets(c, h);
    for (const t of list) await install(c, t, out, true);
    if (which !== 'all' || list.length > 0) off.delete(h);
  }
  await remember(c, off);
  return out;
}

/** `collie skill uninstall <harness|all>`: the Claude file removed, blocks cut, and remembered. */
export async function uninstallSkill(c: SkillContext, which: HarnessName | 'all'): Promise<SkillLine[]> {
  const out: SkillLine[] = [];
  const off = await uninstalled(c);
  for (const h of which === 'all' ? [...HARNESSES] : [which]) {
    for (const t of await targets(c, h)) {
      const state = await readState(t.file);
      await apply(c, t, t.whole ? removeWhole(state) : removeBlock(state), out);
    }
    off.add(h);
  }
  await remember(c, off);
  return out;
}

/** `collie skill status`: one row per target. */
export async function skillStatus(c: SkillContext): Promise<StatusRow[]> {
  const rows: StatusRow[] = [];
  const off = await uninstalled(c);
  for (const h of HARNESSES) {
    const list = await found(c, h);
    if (list.length === 0 || off.has(h)) {
      for (const t of list.length ? list : (await targets(c, h)).slice(0, 1)) rows.push({ harness: h, file: t.file, status: 'absent' });
      continue;
    }
    for (const t of list) rows.push({ harness: h, file: t.file, ...statusOf(await readState(t.file), t.whole, want(c, t)) });
  }
  return rows;
}

export function formatLines(lines: readonly SkillLine[], dryRun: boolean): string {
  const verb = (a: SkillLine['action']) => (a === 'note' ? 'note:' : a === 'cut' ? 'cut the block from' : a);
  return lines.map((l) => `${dryRun && l.action !== 'note' ? '(dry run) ' : ''}${verb(l.action)} ${l.file}${l.detail ? `: ${l.detail}` : ''}`).join('\n');
}

export function formatStatus(rows: readonly StatusRow[]): string {
  return rows.map((r) => `${r.harness.padEnd(9)}${r.status.padEnd(10)}${r.file}${r.reason ? ` (${r.reason})` : ''}`).join('\n');
}

/**
 * What `collie update` runs after installing a build: a sync, or with COLLIE_SKILL_SYNC=off
 * nothing written and one note when an installed copy is behind.
 */
export async function syncAfterUpdate(c: SkillContext, syncOff: boolean): Promise<SkillLine[] | string> {
  if (!syncOff) return syncSkill(c);
  const stale = (await skillStatus(c)).some((r) => r.status === 'stale');
  return stale ? 'note: this build carries a newer walky talky skill; COLLIE_SKILL_SYNC is off, so run collie skill sync to install it' : [];
}
