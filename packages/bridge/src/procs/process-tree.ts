/**
 * A pane's process tree, read from /proc without running `ps`: the bridge looks at every
 * pane and may not spawn a process to do it (budget: no periodic process spawning).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
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

/**
 * procfs reports a size of 0 for every file, so `readFile` allocates its 64 KiB
 * unknown-size buffer for each one: reading /proc/*\/stat for 50 panes at once held
 * hundreds of MiB (measured 2026-12-02). A stat line is under 1 KiB, and the first 4 KiB
 * of a command line name the program and its script, which is all detection reads.
 */
const READ_MAX = 4096;

/**
 * Stat files read in one turn of the event loop; the next ones wait for the next turn. Every
 * scan reads every process's stat file, so these reads are most of what the bridge does with
 * /proc. Each is synchronous (open, one read into one shared buffer, close: microseconds, and a
 * stat file never waits on the process's memory lock), so a turn holds the loop for well under
 * a millisecond and one stat file at most is open. Read through `fs/promises` instead, each file
 * cost three native requests with buffers freed only at a garbage collection: 80,000 native
 * allocations a second in the soak's bridge (200 panes, heaptrack, 2026-12-07), most of them
 * here, and malloc's main arena grew under them.
 */
export const STAT_SLICE = 64;
const statBuffer = Buffer.allocUnsafe(READ_MAX);
let statsThisTurn = 0;
/** A turn's end is scheduled (an Immediate that runs `nextTurn`). */
let turnPending = false;
const statsWaiting: (() => void)[] = [];

/** Turns in which stat reads that had waited went on (the tests count them). */
export const statTurns = { count: 0 };

/** A new turn: up to STAT_SLICE waiting reads go on, in the order they asked. */
function nextTurn(): void {
  turnPending = false;
  statsThisTurn = 0;
  if (statsWaiting.length > 0) statTurns.count++;
  while (statsThisTurn < STAT_SLICE && statsWaiting.length > 0) {
    statsThisTurn++;
    statsWaiting.shift()!();
  }
  if (statsThisTurn > 0) scheduleTurn();
}

function scheduleTurn(): void {
  turnPending = true;
  setImmediate(nextTurn);
}

async function readStat(path: string): Promise<string> {
  if (!turnPending) scheduleTurn();
  if (statsThisTurn < STAT_SLICE && statsWaiting.length === 0) statsThisTurn++;
  else await new Promise<void>((r) => statsWaiting.push(r));
  const fd = openSync(path, 'r');
  try {
    return statBuffer.toString('utf8', 0, readSync(fd, statBuffer, 0, READ_MAX, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * At most this many command lines open at once, across every scan. A command line is read
 * asynchronously: reading it takes the process's memory lock, which a process stuck in the
 * kernel can hold for long. Many scans at once held one descriptor per process each: a peak
 * of 3,672 open fds was seen in the soak (2026-12-05), near the default limit of 4,096.
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
    .then((names) => Promise.all(names.filter((n) => /^\d+$/.test(n)).map((n) => readOr(join(procRoot, n, 'stat'), parseStat, null, readStat))));
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
      const stat = await readOr(join(procRoot, n, 'stat'), parseStat, null, readStat);
      return stat ? { ...stat, argv: await readOr(join(procRoot, n, 'cmdline'), parseCmdline, []) } : null;
    }),
  );
  return procs.filter((p): p is Proc => p !== null);
}
