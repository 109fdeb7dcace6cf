/**
 * Which agent program runs in a pane, from its process tree.
 *
 * Agents often run under an interpreter (`node …/bin/codex`, `node …/@anthropic-ai/claude-code/cli.js`,
 * `python -m aider`), so besides the command's own name we look at the script an interpreter
 * runs, and at the npm or Python package that script lives in.
 */
import type { Harness } from '@collie/protocol';
import type { Proc } from './proc-stat';

type Agent = Exclude<Harness, 'shell'>;

// Exact command names. `pi` and `omp` are short, so only a whole name counts: `pip`,
// `ping`, `pi-hole` and `compose` are not agents.
const COMMANDS: Readonly<Record<string, Agent>> = {
  claude: 'claude',
  codex: 'codex',
  opencode: 'opencode',
  gemini: 'gemini',
  pi: 'pi',
  omp: 'omp',
  aider: 'aider',
};

// Package directories an agent's script lives in (npm 2026). Checked before the script's
// name, since `cli.js` and `index.js` say nothing, and since oh-my-pi ships a package named
// like pi's (`@oh-my-pi/pi-coding-agent` is omp, `@mariozechner/pi-coding-agent` is pi).
const PACKAGES: ReadonlyArray<readonly [RegExp, Agent]> = [
  [/\/@anthropic-ai\/claude-code\//, 'claude'],
  [/\/@anthropic-ai\/claude-agent-sdk-[a-z0-9-]+\/claude$/, 'claude'],
  // The native installer keeps each version as `~/.local/share/claude/versions/<version>`.
  [/\/claude\/versions\/\d+\.\d+\.\d+[^/]*$/, 'claude'],
  [/\/@openai\/codex(?:-[a-z0-9-]+)?\//, 'codex'],
  [/\/opencode-ai\/|\/opencode-(?:linux|darwin)-[a-z0-9-]+\//, 'opencode'],
  [/\/@google\/gemini-cli\//, 'gemini'],
  [/\/@oh-my-pi\//, 'omp'],
  [/\/@mariozechner\/pi-coding-agent\//, 'pi'],
  [/\/aider-chat\/|\/site-packages\/aider\//, 'aider'],
];

const INTERPRETER = /^(?:node|nodejs|bun|deno|tsx|ts-node|python[0-9.]*|pypy[0-9.]*)$/;
// Interpreter options that take the next argument as their value.
const TAKES_VALUE = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-W', '-X']);

function baseName(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  // Script extensions of the npm launchers (`codex.js`). Not `.py`: `python pi.py` is no agent.
  return name.replace(/\.(?:[mc]?js|exe)$/, '');
}

/**
 * An agent named by a command or script path: a package directory first, then the name. Also
 * how a saved launcher's words say which agent it runs (`sessions/routes.ts`).
 */
export function agentOfPath(path: string): Agent | null {
  for (const [re, agent] of PACKAGES) if (re.test(path)) return agent;
  const name = baseName(path);
  // The codex npm package runs its native build under the target triple's name.
  if (/^codex-(?:x86_64|aarch64|arm64)-/.test(name)) return 'codex';
  return Object.hasOwn(COMMANDS, name) ? (COMMANDS[name] ?? null) : null;
}

/** The script (or `-m` module) an interpreter's argv runs, if any. */
function scriptOf(argv: readonly string[]): string | null {
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    // `python -m aider.main` runs the package `aider`; `-c` and `-e` run inline code.
    if (arg === '-m') return argv[i + 1]?.split('.')[0] ?? null;
    if (arg === '-c' || arg === '-e' || arg === '--eval' || arg === '-p' || arg === '--print') return null;
    if (TAKES_VALUE.has(arg)) i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return null;
}

/**
 * The agent one process is, if any: by its command path, by `comm`, and for an interpreter
 * by the script it runs.
 */
export function harnessOf(proc: Proc): Agent | null {
  // A process that rewrote its title may hold its whole command line in one argument.
  const first = proc.argv[0] ?? '';
  const command = proc.argv.length === 1 ? (first.split(' ')[0] ?? '') : first;
  const direct = agentOfPath(command) ?? agentOfPath(proc.comm);
  if (direct) return direct;
  if (INTERPRETER.test(baseName(command)) || INTERPRETER.test(proc.comm)) {
    const script = scriptOf(proc.argv);
    if (script !== null) return agentOfPath(script);
  }
  return null;
}

/**
 * The harness of a pane: the first process, in the order given, that is an agent, else
 * `shell`. With {@link processTree}'s order (root, then breadth first) the agent nearest the
 * pane's shell wins over anything it runs itself.
 *
 * @example
 * detectHarness([{ pid: 1, ppid: 0, comm: 'bash', argv: ['-bash'] },
 *                { pid: 2, ppid: 1, comm: 'node', argv: ['node', '/usr/lib/node_modules/@openai/codex/bin/codex.js'] }]);
 * // 'codex'
 */
export function detectHarness(procs: readonly Proc[]): Harness {
  for (const proc of procs) {
    const agent = harnessOf(proc);
    if (agent) return agent;
  }
  return 'shell';
}
