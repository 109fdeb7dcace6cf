import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { Harness } from '@collie/protocol';
import { detectHarness } from '../procs';
import type { Proc } from '../procs/proc-stat';
import { processTree } from '../procs/process-tree';

const run = promisify(execFile);
const INTERPRETER = /^(?:node|nodejs|bun|deno|tsx|python[0-9.]*)$/;
const SEMVER = /\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?/;
/** The native installer keeps each version as `…/claude/versions/<version>`. */
const VERSIONED_PATH = /\/versions\/(\d+\.\d+\.\d+[^/]*)$/;
/** Package folders whose package.json carries another program's version (the SDK ships the CLI). */
const NOT_THE_AGENT = /claude-agent-sdk/;

/** `--version` answers, per executable path: asked once per binary, never again (nothing periodic). */
const asked = new Map<string, Promise<string>>();

/**
 * The version of the agent running in a pane whose root process is `pid`: from its executable's
 * path (`…/versions/2.1.334`), else the package.json of the script an interpreter runs, else the
 * executable's own `--version`, asked once per path and cached. `unknown` when none says.
 */
export async function agentVersion(pid: number, harness: Harness): Promise<string> {
  const procs = await processTree(pid).catch((): Proc[] => []);
  const agent = procs.find((p) => detectHarness([p]) === harness) ?? null;
  const argv = agent?.argv ?? [];
  const exe = argv[0] ?? '';
  if (exe === '') return 'unknown';
  const versioned = VERSIONED_PATH.exec(exe)?.[1];
  if (versioned) return versioned;
  const name = exe.slice(exe.lastIndexOf('/') + 1);
  if (INTERPRETER.test(name)) {
    const script = argv.slice(1).find((a) => !a.startsWith('-'));
    return script ? ((await packageVersion(script)) ?? 'unknown') : 'unknown';
  }
  if (!exe.startsWith('/')) return 'unknown';
  let answer = asked.get(exe);
  if (!answer) {
    answer = run(exe, ['--version'], { timeout: 5000, env: { ...process.env, NO_COLOR: '1' } }).then(
      ({ stdout }) => SEMVER.exec(stdout)?.[0] ?? 'unknown',
      () => 'unknown',
    );
    asked.set(exe, answer);
  }
  return answer;
}

/** The version in the nearest package.json above `file` (four levels at most). */
async function packageVersion(file: string): Promise<string | null> {
  let dir = dirname(file);
  for (let i = 0; i < 4 && dir !== '/'; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { version?: unknown; name?: unknown };
      if (typeof pkg.name === 'string' && NOT_THE_AGENT.test(pkg.name)) return null;
      return typeof pkg.version === 'string' ? pkg.version : null;
    } catch {
      // no package.json here: one level up
    }
  }
  return null;
}
