/**
 * The reads of /proc the bridge makes thousands of a minute: every process's stat file (each
 * pass), the descriptors and folder of an agent (each look for its transcript), those of a
 * walky caller (each proof). One mechanism serves them all.
 *
 * A file or link that never waits on a lock held by the process (its stat line, an fd's or
 * its cwd's link, its fd folder) is read synchronously, SLICE of them in a turn of the event
 * loop, the next ones in the next turn. A turn of 64 holds the loop well under a millisecond.
 * Read through `fs/promises` instead, each cost native requests, each with an array of its own
 * (for a stat that is never asked for) and buffers freed only at a garbage collection: 80,000
 * native allocations a second in the soak's bridge (200 panes, heaptrack, 2026-12-07), and
 * malloc's main arena grew under them. The readlinks of the transcript finders were the most
 * of them after the stat files were read so.
 *
 * A file whose read takes the process's memory lock (its command line, its environment) can
 * wait for long on a process stuck in the kernel: it is read asynchronously, at most MAX_OPEN
 * at once, through the callback API (one request object a read, no promise's array).
 */
import { close, closeSync, open, openSync, read, readSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * procfs reports a size of 0 for every file, so `readFile` allocates its 64 KiB
 * unknown-size buffer for each one: reading /proc/*\/stat for 50 panes at once held
 * hundreds of MiB (measured 2026-12-02). A stat line is under 1 KiB, and the first 4 KiB
 * of a command line name the program and its script, which is all detection reads.
 */
export const READ_MAX = 4096;

/** Quick reads made in one turn of the event loop; the next ones wait for the next turn. */
export const SLICE = 64;
const quickBuffer = Buffer.allocUnsafe(READ_MAX);
let inThisTurn = 0;
/** A turn's end is scheduled (an Immediate that runs `nextTurn`). */
let turnPending = false;
const quickWaiting: (() => void)[] = [];

/** Turns in which quick reads that had waited went on (the tests count them). */
export const sliceTurns = { count: 0 };

/** A new turn: up to SLICE waiting reads go on, in the order they asked. */
function nextTurn(): void {
  turnPending = false;
  inThisTurn = 0;
  if (quickWaiting.length > 0) sliceTurns.count++;
  while (inThisTurn < SLICE && quickWaiting.length > 0) {
    inThisTurn++;
    quickWaiting.shift()!();
  }
  if (inThisTurn > 0) scheduleTurn();
}

function scheduleTurn(): void {
  turnPending = true;
  setImmediate(nextTurn);
}

/**
 * `fn()` (one quick synchronous read) in this turn if its slice has room, else in a later one.
 * A read of a process that ended fails, a dozen times a second on a busy machine, and its error
 * is dropped: it is made without a stack trace, which costs more native memory than the read.
 */
async function quickly<T>(fn: () => T): Promise<T> {
  if (!turnPending) scheduleTurn();
  if (inThisTurn < SLICE && quickWaiting.length === 0) inThisTurn++;
  else await new Promise<void>((r) => quickWaiting.push(r));
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return fn();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The first READ_MAX bytes of a file that never waits on the process (its stat line); throws as `open` does. */
export function readQuick(path: string): Promise<string> {
  return quickly(() => {
    const fd = openSync(path, 'r');
    try {
      return quickBuffer.toString('utf8', 0, readSync(fd, quickBuffer, 0, READ_MAX, 0));
    } finally {
      closeSync(fd);
    }
  });
}

/** Where a /proc link points (`cwd`, an fd), or null when it cannot be read (the process or fd is gone). */
export function linkOf(path: string): Promise<string | null> {
  return quickly(() => {
    try {
      return readlinkSync(path);
    } catch {
      return null;
    }
  });
}

/** What each of a process's descriptors is (`<pidDir>/fd`), in the order listed; none when the folder cannot be read. */
export async function fdLinksOf(pidDir: string): Promise<{ fd: number; link: string }[]> {
  const dir = join(pidDir, 'fd');
  const names = await quickly(() => {
    try {
      return readdirSync(dir);
    } catch {
      return [] as string[];
    }
  });
  const links = await Promise.all(names.map((n) => linkOf(join(dir, n))));
  return names.flatMap((n, i) => {
    const link = links[i];
    return link === null || link === undefined ? [] : [{ fd: Number(n), link }];
  });
}

/**
 * At most this many files read asynchronously at once, across every caller. Many scans at once
 * held one descriptor per process each: a peak of 3,672 open fds was seen in the soak
 * (2026-12-05), near the default limit of 4,096.
 */
export const MAX_OPEN = 64;
let open_ = 0;
const waiting: (() => void)[] = [];

/**
 * A file whose read may wait on the process's memory lock (`cmdline`, `environ`): its first
 * `max` bytes, asynchronously. Throws as `open` does.
 */
export async function readSmall(path: string, max = READ_MAX): Promise<string> {
  // A freed slot passes straight to the next waiter, so no newcomer takes it in between.
  if (open_ >= MAX_OPEN) await new Promise<void>((r) => waiting.push(r));
  else open_++;
  try {
    return await readOpen(path, max);
  } finally {
    const next = waiting.shift();
    if (next) next();
    else open_--;
  }
}

function readOpen(path: string, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    open(path, 'r', (err, fd) => {
      if (err) return reject(err);
      const chunks: Buffer[] = [];
      let total = 0;
      // READ_MAX at a time: most are one read into one small buffer; an environment may take a few.
      const more = (): void => {
        const buf = Buffer.allocUnsafe(Math.min(READ_MAX, max - total));
        read(fd, buf, 0, buf.length, total, (rerr, n) => {
          if (!rerr && n > 0) {
            chunks.push(n === buf.length ? buf : buf.subarray(0, n));
            total += n;
          }
          if (rerr || n < buf.length || total >= max) close(fd, () => (rerr ? reject(rerr) : resolve((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total)).toString('utf8'))));
          else more();
        });
      };
      more();
    });
  });
}
