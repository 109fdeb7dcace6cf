/**
 * A pane's process tree, read from /proc without running `ps`: the bridge looks at every
 * pane and may not spawn a process to do it (budget: no periodic process spawning).
 */
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseCmdline, parseStat, type Proc, type StatLine } from './proc-stat';

/** Options of {@link processTrees}. */
export interface ProcessTreeOptions {
  /** Where procfs is mounted; tests point it at a fixture directory. */
  readonly procRoot?: string;
}

/**
 * procfs reports a size of 0 for every file, so `readFile` allocates its 64 KiB
 * unknown-size buffer for each one: reading /proc/*\/stat for 50 panes at once held
 * hundreds of MiB (measured 2026-12-02). A stat line is under 1 KiB, and the first 4 KiB
 * of a command line name the program and its script, which is all detection reads.
 */
const READ_MAX = 4096;

/**
 * At most this many procfs files open at once, across every scan. Each scan reads every
 * process's stat file; many scans at once (a bridge starting on 200 panes looks up each
 * pane's agent version and transcript) held one descriptor per process per scan: a peak of
 * 3,672 open fds was seen in the soak (2026-12-05), near the default limit of 4,096.
 */
export const MAX_OPEN = 64;
let open_ = 0;
const waiting: (() => void)[] = [];

async function readSmall(path: string): Promise<string> {
  // A freed slot passes straight to the next waiter, so no newcomer takes it in between.
  if (open_ >= MAX_OPEN) await new Promise<void>((r) => waiting.push(r));
  else open_++;
  try {
    return await readOpen(path);
  } finally {
    const next = waiting.shift();
    if (next) next();
    else open_--;
  }
}

async function readOpen(path: string): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(READ_MAX);
    const { bytesRead } = await fh.read(buf, 0, READ_MAX, 0);
    return buf.toString('utf8', 0, bytesRead);
  } finally {
    await fh.close();
  }
}

// A process may exit between listing /proc and reading its files: that is a missing
// process, not an error.
async function readOr<T>(path: string, parse: (text: string) => T, fallback: T): Promise<T> {
  try {
    return parse(await readSmall(path));
  } catch {
    return fallback;
  }
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
  const names = await readdir(procRoot).catch(() => [] as string[]);
  const stats = await Promise.all(
    names.filter((n) => /^\d+$/.test(n)).map((n) => readOr(join(procRoot, n, 'stat'), parseStat, null)),
  );
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
      const stat = await readOr(join(procRoot, n, 'stat'), parseStat, null);
      return stat ? { ...stat, argv: await readOr(join(procRoot, n, 'cmdline'), parseCmdline, []) } : null;
    }),
  );
  return procs.filter((p): p is Proc => p !== null);
}
