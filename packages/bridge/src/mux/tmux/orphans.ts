import { readFileSync } from 'node:fs';

/**
 * Control clients a bridge that died left behind. Each `tmux -C` client the bridge starts
 * carries, in its environment, which bridge started it: that process's pid and start time. A
 * bridge killed with -9 leaves its clients to tmux, and tmux 3.3a keeps some of them for good
 * (attached, their reader gone; a `kill-server` then waits on them, and the server lives on).
 * A bridge that starts ends the clients whose bridge no longer runs.
 */

/** The environment variable naming the bridge that started a control client. */
export const CONTROL_OWNER_ENV = 'COLLIE_CONTROL_OWNER';

/** `pid:starttime` of a process, or null where there is no /proc (the mark is then left out). */
export function processMark(pid: number): string | null {
  const start = startTime(pid);
  return start === null ? null : `${pid}:${start}`;
}

/** This process's mark, read once. */
let own: string | null | undefined;
export function ownMark(): string | null {
  if (own === undefined) own = processMark(process.pid);
  return own;
}

/** A process's start time (clock ticks after boot), or null when it is gone, a zombie, or there is no /proc. */
function startTime(pid: number): string | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Fields after the command name (which may hold spaces and parentheses): state is the first, starttime the 20th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return null;
  return fields[19] ?? null;
}

/** The owner mark in a process's environment, or null (not ours, not readable, gone). */
export function ownerOf(pid: number): string | null {
  let environ: string;
  try {
    environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return null;
  }
  const prefix = `${CONTROL_OWNER_ENV}=`;
  for (const entry of environ.split('\0')) if (entry.startsWith(prefix)) return entry.slice(prefix.length);
  return null;
}

/** Whether the process a mark names still runs (the same pid, started at the same time). */
export function markAlive(mark: string): boolean {
  const m = /^(\d+):(\d+)$/.exec(mark);
  if (!m) return false;
  return startTime(Number(m[1])) === m[2];
}

/**
 * Of a tmux server's clients (their pids, from `list-clients -F '#{client_pid}'`), those that a
 * bridge started which no longer runs. Clients without a mark (the user's own, another tool's)
 * are never counted.
 */
export function orphanedClients(clientPids: readonly number[]): number[] {
  const mine = ownMark();
  return clientPids.filter((pid) => {
    const owner = ownerOf(pid);
    return owner !== null && owner !== mine && !markAlive(owner);
  });
}
