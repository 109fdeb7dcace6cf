import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Harness } from '@collie/protocol';
import { allProcesses, fdLinksOf, harnessOf, linkOf, processTree, readQuick, readSmall, type Proc } from '../procs';
import { parseClaudeLine } from './claude-lines';
import { parseCodexLine } from './codex-lines';
import type { LineParser } from './entries';
import { findClaude } from './find-claude';
import { findCodex } from './find-codex';
import { findGemini } from './find-gemini';
import { findOpencode } from './find-opencode';
import { findPi } from './find-pi';
import type { AgentProcess, Finding } from './finding';
import { parseGeminiLine } from './gemini-lines';
import { parsePiLine } from './pi-lines';

export type { AgentProcess, Finding } from './finding';

/**
 * One agent's transcripts: how to find a pane's, and how to read a line of it. `others`: the
 * other running processes of the same agent, outside the pane (read only when asked for).
 */
export type TranscriptReader = {
  readonly find: (p: AgentProcess, others: () => Promise<AgentProcess[]>, procRoot: string) => Promise<Finding>;
} & (
  /** A transcript file of lines, followed by `TranscriptFollower`. */
  | { readonly kind: 'lines'; readonly parse: LineParser }
  /** A session in a SQLite database, followed by `OpencodeFollower`. */
  | { readonly kind: 'opencode' }
);

/** Agents whose transcripts the bridge reads (see docs/agents.md); the others keep the terminal. */
export const TRANSCRIPTS: Partial<Record<Harness, TranscriptReader>> = {
  claude: { kind: 'lines', find: findClaude, parse: parseClaudeLine },
  codex: { kind: 'lines', find: findCodex, parse: parseCodexLine },
  gemini: { kind: 'lines', find: findGemini, parse: parseGeminiLine },
  opencode: { kind: 'opencode', find: findOpencode },
  pi: { kind: 'lines', find: findPi, parse: parsePiLine },
};

const NAMES: Partial<Record<Harness, string>> = { claude: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI', opencode: 'OpenCode', pi: 'pi', omp: 'omp', aider: 'Aider' };

export function readerOf(harness: string): TranscriptReader | null {
  return TRANSCRIPTS[harness as Harness] ?? null;
}

/** An agent's environment is read up to this much (Linux allows 2 MiB of arguments and environment together). */
const ENVIRON_MAX = 2 * 1024 * 1024;

/** Clock ticks per second of `/proc/<pid>/stat`'s times (`getconf CLK_TCK`, 100 on Linux). */
const TICKS = 100;

/** Boot times read, by procfs root: the machine's does not change while it runs. */
const boots = new Map<string, Promise<number | null>>();

/** The boot time, epoch ms (`btime` of `/proc/stat`), or null. */
function bootTime(procRoot: string): Promise<number | null> {
  let boot = boots.get(procRoot);
  if (!boot) {
    boot = readFile(join(procRoot, 'stat'), 'utf8').then(
      (stat) => {
        const m = /^btime (\d+)$/m.exec(stat);
        return m ? Number(m[1]) * 1000 : null;
      },
      () => null,
    );
    // Not read: read again next time.
    const read = boot;
    void read.then((b) => b === null && boots.get(procRoot) === read && boots.delete(procRoot));
    // One entry per root: a test's fixture roots come and go, /proc stays.
    if (boots.size >= 8) boots.clear();
    boots.set(procRoot, boot);
  }
  return boot;
}

async function facts(pid: number, procRoot: string, boot: number | null, argv: readonly string[]): Promise<AgentProcess> {
  const dir = join(procRoot, String(pid));
  const env: Record<string, string> = {};
  const environ = await readSmall(join(dir, 'environ'), ENVIRON_MAX).catch(() => '');
  for (const kv of environ.split('\0')) {
    const eq = kv.indexOf('=');
    if (eq > 0) env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  const stat = await readQuick(join(dir, 'stat')).catch(() => '');
  const start = Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[19]);
  const held = (await fdLinksOf(dir)).flatMap((f) => (f.link.startsWith('/') ? [{ fd: f.fd, path: f.link }] : []));
  const startTime = Number.isInteger(start) ? start : null;
  return {
    pid,
    startTime,
    startedAt: startTime !== null && boot !== null ? boot + (startTime * 1000) / TICKS : null,
    argv,
    env,
    cwd: await linkOf(join(dir, 'cwd')),
    files: held.map((f) => f.path),
    fds: held,
  };
}

/**
 * The transcript of the agent running in a pane, from the agent's own process: its open
 * files, its environment and the session registry it keeps. The agent is the process the
 * harness was detected from and its children (a launcher runs the real program beneath it).
 */
export async function findTranscript(pane: { pid: number; harness: Harness }, procRoot = '/proc', passSince?: number): Promise<Finding> {
  const reader = TRANSCRIPTS[pane.harness];
  if (pane.harness === 'shell') return { found: false, reason: 'No agent runs in this pane.', watch: [] };
  if (!reader) return { found: false, reason: `Collie does not read ${NAMES[pane.harness] ?? pane.harness}’s transcripts yet.`, watch: [] };
  const tree = await processTree(pane.pid, { procRoot, ...(passSince !== undefined ? { passSince } : {}) });
  const top = tree.find((p) => harnessOf(p) === pane.harness);
  if (!top) return { found: false, reason: 'The agent’s process has ended.', watch: [] };
  const mine = descendants(tree, top);
  const boot = await bootTime(procRoot);
  const inside = new Set(mine.map((p) => p.pid));
  let rivals: Promise<AgentProcess[]> | null = null;
  const others = () =>
    (rivals ??= allProcesses({ procRoot }).then((all) =>
      Promise.all(all.filter((p) => !inside.has(p.pid) && harnessOf(p) === pane.harness).map((p) => facts(p.pid, procRoot, boot, p.argv))),
    ));
  let last: Finding = { found: false, reason: 'No transcript found for this agent.', watch: [] };
  for (const proc of mine) {
    const f = await reader.find(await facts(proc.pid, procRoot, boot, proc.argv), others, procRoot);
    if (f.found) return f;
    if (proc === top) last = f;
  }
  return last;
}

/** `top` and every process beneath it, in the tree's order. */
function descendants(tree: readonly Proc[], top: Proc): Proc[] {
  const inside = new Set([top.pid]);
  const out = [top];
  for (const p of tree) {
    if (inside.has(p.ppid) && !inside.has(p.pid)) {
      inside.add(p.pid);
      out.push(p);
    }
  }
  return out;
}
