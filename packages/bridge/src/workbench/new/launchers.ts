import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, readFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { LaunchersFile, type Launcher, type OfferedLauncher } from '@collie/protocol';
import { writeFileAtomic } from '../../config';
import { ApiError } from '../../http/api-error';

/** The agents Collie knows, as they start with no flags. */
export const KNOWN_AGENTS = ['claude', 'codex', 'gemini', 'opencode', 'pi', 'omp'] as const;

/** The first executable `bin` on PATH, or null. */
export async function onPath(bin: string, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  if (bin.includes('/')) return (await access(bin, constants.X_OK).then(() => true, () => false)) ? bin : null;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, bin);
    if (await access(p, constants.X_OK).then(() => true, () => false)) return p;
  }
  return null;
}

const versions = new Map<string, Promise<string | null>>();
/** How long an agent may take to say its version. */
const VERSION_MS = 5000;

/** The first non-blank line of what a program printed, at most 80 characters; null when none. Pure. */
export function firstLine(text: string): string | null {
  return (text.split('\n').find((l) => l.trim()) ?? '').trim().slice(0, 80) || null;
}

/**
 * `<bin> --version`'s first line (5 s at most), from its output or, when that is empty, its
 * error output (pi prints its version there), asked once per path per bridge run; an agent
 * that did not answer in time is asked again on the next read (a loaded machine made Gemini CLI
 * miss the deadline, and the page then showed it without a version for the bridge's whole run).
 * The agent runs in a process group of its own, which is killed at the deadline: some agents
 * start a child that keeps the output open after the parent is killed (Gemini CLI relaunches
 * itself), and waiting for the output to close held the New page for over a minute.
 */
function versionOf(path: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  let v = versions.get(path);
  if (!v) {
    v = new Promise((resolve) => {
      let out = '';
      let err = '';
      let done = false;
      // With the environment it was found in: an agent whose shebang names another program
      // (omp's `#!/usr/bin/env bun`) finds it on that PATH, as it will in the pane.
      const child = spawn(path, ['--version'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, NO_COLOR: '1' } });
      const finish = (version: string | null) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // the group has ended
        }
        resolve(version);
      };
      const timer = setTimeout(() => {
        versions.delete(path);
        finish(null);
      }, VERSION_MS);
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => (out += chunk));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => (err.length < 4096 ? (err += chunk) : undefined));
      child.on('error', () => finish(null));
      const said = (code: number | null) => (code === 0 ? (firstLine(out) ?? firstLine(err)) : null);
      // 'close' comes once the output is read to its end; a child still holding it open gets 300 ms.
      child.on('close', (code) => finish(said(code)));
      child.on('exit', (code) => void setTimeout(() => finish(said(code)), 300));
    });
    versions.set(path, v);
  }
  return v;
}

/** The saved launchers of `<config>/launchers.json` (none when the file is absent); a bad file says what is wrong. */
export async function savedLaunchers(configDir: string | null): Promise<Launcher[]> {
  if (!configDir) return [];
  let raw: string;
  try {
    raw = await readFile(join(configDir, 'launchers.json'), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ApiError('conflict', 'new: launchers.json is not JSON; fix or remove it');
  }
  const p = LaunchersFile.safeParse(json);
  if (!p.success) throw new ApiError('conflict', `new: launchers.json: ${p.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ').slice(0, 300)}`);
  return p.data.launchers;
}

/**
 * Write the saved launchers to `<config>/launchers.json` (0600, atomically; the config dir made
 * 0700 if missing). `change` gets the file's launchers (a broken file is refused, never
 * overwritten) and returns the new list.
 */
export async function updateLaunchers(configDir: string, change: (saved: Launcher[]) => Launcher[]): Promise<Launcher[]> {
  const next = LaunchersFile.parse({ launchers: change(await savedLaunchers(configDir)) }).launchers;
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(join(configDir, 'launchers.json'), `${JSON.stringify({ launchers: next }, null, 2)}\n`, 0o600);
  return next;
}

/** Saved launchers first, then the known agents found on PATH with their versions, then the shell. Names are unique (the first wins). */
export async function offeredLaunchers(configDir: string | null, env: NodeJS.ProcessEnv = process.env): Promise<OfferedLauncher[]> {
  const out: OfferedLauncher[] = [];
  for (const l of await savedLaunchers(configDir)) out.push({ ...l, source: 'saved', version: null });
  // The versions asked side by side: six `--version` runs one after the other held the first page for seconds.
  const agents = await Promise.all(
    KNOWN_AGENTS.map(async (name) => {
      const path = await onPath(name, env);
      return { name, path, version: path ? await versionOf(path, env) : null };
    }),
  );
  for (const a of agents) if (a.path) out.push({ name: a.name, command: [a.name], source: 'agent', version: a.version });
  const shell = env.SHELL && (await onPath(env.SHELL, env)) ? env.SHELL : 'sh';
  out.push({ name: 'shell', command: [shell], source: 'shell', version: null });
  const seen = new Set<string>();
  return out.filter((l) => !seen.has(l.name) && seen.add(l.name));
}
