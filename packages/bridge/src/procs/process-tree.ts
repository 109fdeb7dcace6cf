/**
 * A pane's process tree, read from /proc without running `ps`: the bridge looks at every
 * pane and may not spawn a process to do it (budget: no periodic process spawning).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readQuick, readSmall } from './proc-read';
import { parseCmdline, parseStat, type Proc, type StatLine } from './proc-stat';

/** Options of {@link processTrees}. */
export interface ProcessTreeOptions {
  /** Where procfs is mounted; tests point it at a fixture directory. */
  readonly procRoot?: string;
  /**
   * Take the latest pass over every process's stat file, in flight or done, when it began at
   * or after this time (epoch ms); without it (the default) the stat files are read now. A look
   * that repeats anyway (a transcript looked for again) takes one a few seconds old, a batch of
   * looks begun together takes the batch's: a look after an event never takes a pass from
   * before it.
   */
  readonly passSince?: number;
}

// A process may exit between listing /proc and reading its files: that is a missing
// process, not an error.
async function readOr<T>(path: string, parse: (text: string) => T, fallback: T, read = readSmall): Promise<T> {
  try {
    return parse(await read(path));
  } catch {
    return fallback;
  }
}

/** The latest pass over `<procRoot>/*\/stat`, by procfs root: when it began, and its lines. */
const passes = new Map<string, { at: number; stats: Promise<(StatLine | null)[]> }>();
/** Passes made since the process started (the tests count them). */
export const statPasses = { count: 0 };

/**
 * Every process's stat line: a new pass, or with `since` the latest one when it began at or
 * after then. Each pass opens one file per process, so 200 panes whose transcripts are
 * looked for again every 15 s share one pass every few seconds instead of making 13 a second.
 */
function statPass(procRoot: string, since: number | undefined): Promise<(StatLine | null)[]> {
  const now = Date.now();
  const last = passes.get(procRoot);
  if (since !== undefined && last && last.at >= since) return last.stats;
  statPasses.count++;
  const stats = readdir(procRoot)
    .catch(() => [] as string[])
    .then((names) => Promise.all(names.filter((n) => /^\d+$/.test(n)).map((n) => readOr(join(procRoot, n, 'stat'), parseStat, null, readQuick))));
  // One entry per root: a test's fixture roots come and go, /proc stays.
  if (!last && passes.size >= 8) passes.clear();
  passes.set(procRoot, { at: now, stats });
  return stats;
}

/**
 * The trees under several roots, from one pass over `/proc/*\/stat`. Each tree lists its
 * root first, then descendants breadth first (parents before children, shallower first).
 * A root that does not exist maps to an empty list.
 *
 * @example
 * const trees = await processTrees(panes.map((p) => p.pid));
 */
export async function processTrees(
  rootPids: readonly number[],
  options: ProcessTreeOptions = {},
): Promise<Map<number, Proc[]>> {
  const procRoot = options.procRoot ?? '/proc';
  const stats = await statPass(procRoot, options.passSince);
  const byPid = new Map<number, StatLine>();
  const children = new Map<number, number[]>();
  for (const s of stats) {
    if (!s) continue;
    byPid.set(s.pid, s);
    const siblings = children.get(s.ppid);
    if (siblings) siblings.push(s.pid);
    else children.set(s.ppid, [s.pid]);
  }
  const out = new Map<number, Proc[]>();
  for (const root of rootPids) {
    const order: StatLine[] = [];
    const seen = new Set<number>();
    const queue = byPid.has(root) ? [root] : [];
    for (let i = 0; i < queue.length; i++) {
      const pid = queue[i] ?? 0;
      const stat = byPid.get(pid);
      if (!stat || seen.has(pid)) continue;
      seen.add(pid);
      order.push(stat);
      queue.push(...(children.get(pid) ?? []).sort((a, b) => a - b));
    }
    const procs = await Promise.all(
      order.map(async (s) => ({ ...s, argv: await readOr(join(procRoot, String(s.pid), 'cmdline'), parseCmdline, []) })),
    );
    out.set(root, procs);
  }
  return out;
}

/**
 * The process `rootPid` and all its descendants, root first, then breadth first.
 * Empty when `rootPid` is not running.
 *
 * @example
 * const procs = await processTree(pane.pid);
 * detectHarness(procs); // 'claude'
 */
export async function processTree(rootPid: number, options: ProcessTreeOptions = {}): Promise<Proc[]> {
  return (await processTrees([rootPid], options)).get(rootPid) ?? [];
}

/**
 * Every process under `procRoot`, with its command line: for finding the other processes of
 * one agent (the pane chat tells two of them in one folder apart).
 */
export async function allProcesses(options: ProcessTreeOptions = {}): Promise<Proc[]> {
  const procRoot = options.procRoot ?? '/proc';
  const names = (await readdir(procRoot).catch(() => [] as string[])).filter((n) => /^\d+$/.test(n));
  const procs = await Promise.all(
    names.map(async (n): Promise<Proc | null> => {
      const stat = await readOr(join(procRoot, n, 'stat'), parseStat, null, readQuick);
      return stat ? { ...stat, argv: await readOr(join(procRoot, n, 'cmdline'), parseCmdline, []) } : null;
    }),
  );
  return procs.filter((p): p is Proc => p !== null);
}
