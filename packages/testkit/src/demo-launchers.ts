import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Launcher } from '@collie/protocol';
import { updateLaunchers } from '../../bridge/src/workbench/new/launchers';

/** One agent the demo runs, as New offers it again: its name, how it was started, its folder. */
export interface DemoAgent {
  readonly agent: string;
  readonly argv: readonly string[];
  readonly cwd: string;
}

/** The names the demo's launchers go by on the New page: `demo claude`, `demo codex`, … */
export const demoLauncherName = (agent: string): string => `demo ${agent}`;

const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * Saves a launcher per agent the demo runs in the bridge's `<config>/launchers.json`, so New
 * offers them (the demo's agents are not on PATH: each runs offline against its scripted API,
 * with its own config). Each command is a small script in `dir` that `exec`s the agent exactly
 * as the demo started it (a launcher is at most 40 words; the agent's variables are more).
 * Returns what removes them again (the user's own launchers are left as they were).
 */
export async function saveDemoLaunchers(configDir: string, dir: string, agents: readonly DemoAgent[]): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const saved: Launcher[] = [];
  for (const a of agents) {
    const script = join(dir, `${a.agent}.sh`);
    await writeFile(script, `#!/bin/sh\nexec ${a.argv.map(quote).join(' ')} "$@"\n`, { mode: 0o700 });
    await chmod(script, 0o700);
    saved.push({ name: demoLauncherName(a.agent), command: [script], folder: a.cwd });
  }
  const names = new Set(saved.map((l) => l.name));
  await updateLaunchers(configDir, (all) => [...saved, ...all.filter((l) => !names.has(l.name))]);
  return async () => {
    await updateLaunchers(configDir, (all) => all.filter((l) => !names.has(l.name)));
  };
}
