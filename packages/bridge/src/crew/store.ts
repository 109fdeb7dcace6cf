/**
 * The crew's files in `<state>/crew/` (docs/crew.md, "Files"): read through their protocol
 * schemas, written atomically 0600, and changed under one lock so the CLI and the running
 * bridge never lose each other's change.
 */
import { mkdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { CrewFile, CrewStatusFile, InvitesFile } from '@collie/protocol';
import { ensureStateDir, writeFileAtomic } from '../config';
import { crewDir } from './identity';
import { ReplayMemory } from './sign';

export const crewFiles = (stateDir: string) => {
  const dir = crewDir(stateDir);
  return { dir, crew: join(dir, 'crew.json'), invites: join(dir, 'invites.json'), seen: join(dir, 'seen.json'), status: join(dir, 'status.json'), lock: join(dir, '.lock') };
};

async function readJson<S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S> | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`crew: cannot read ${path}: ${(err as Error).message}`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`crew: ${path} is not JSON; move it aside to start over`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new Error(`crew: ${path} does not match its schema (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? ''}); move it aside to start over`);
  return parsed.data;
}

export const readCrew = (stateDir: string) => readJson(crewFiles(stateDir).crew, CrewFile);
export const readInvites = async (stateDir: string) => (await readJson(crewFiles(stateDir).invites, InvitesFile)) ?? { version: 1 as const, invites: [] };
export const readStatus = (stateDir: string) => readJson(crewFiles(stateDir).status, CrewStatusFile).catch(() => null);

export async function writeCrew(stateDir: string, crew: CrewFile | null): Promise<void> {
  const f = crewFiles(stateDir);
  await ensureStateDir(f.dir);
  if (crew === null) await rm(f.crew, { force: true });
  else await writeFileAtomic(f.crew, `${JSON.stringify(CrewFile.parse(crew), null, 2)}\n`);
}
export async function writeInvites(stateDir: string, invites: InvitesFile): Promise<void> {
  await writeFileAtomic(crewFiles(stateDir).invites, `${JSON.stringify(InvitesFile.parse(invites))}\n`);
}
export async function writeStatus(stateDir: string, status: CrewStatusFile): Promise<void> {
  await writeFileAtomic(crewFiles(stateDir).status, `${JSON.stringify(status)}\n`);
}

/** The replay memory as `seen.json` kept it (empty when absent or damaged: the window bounds the loss). */
export async function readSeen(stateDir: string): Promise<ReplayMemory> {
  try {
    const json = JSON.parse(await readFile(crewFiles(stateDir).seen, 'utf8')) as unknown;
    const entries = Array.isArray(json) ? json.filter((e): e is [string, number] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number') : [];
    return new ReplayMemory(entries);
  } catch {
    return new ReplayMemory();
  }
}
export async function writeSeen(stateDir: string, memory: ReplayMemory): Promise<void> {
  memory.prune(Date.now());
  await writeFileAtomic(crewFiles(stateDir).seen, JSON.stringify(memory.entries()));
}

/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 10_000;

/** Run `fn` holding `<state>/crew/.lock` (a directory: mkdir is atomic). */
export async function withCrewLock<T>(stateDir: string, fn: () => Promise<T>): Promise<T> {
  const f = crewFiles(stateDir);
  await ensureStateDir(stateDir);
  await ensureStateDir(f.dir);
  for (let attempt = 0; ; attempt++) {
    try {
      await mkdir(f.lock, { mode: 0o700 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const st = await stat(f.lock).catch(() => null);
      if (st && Date.now() - st.mtimeMs > STALE_LOCK_MS) await rmdir(f.lock).catch(() => undefined);
      else if (attempt > 200) throw new Error(`crew: ${f.lock} is held by another collie; try again`);
      else await new Promise((r) => setTimeout(r, 25));
    }
  }
  try {
    return await fn();
  } finally {
    await rmdir(f.lock).catch(() => undefined);
  }
}
