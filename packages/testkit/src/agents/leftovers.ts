import { readdirSync, readFileSync } from 'node:fs';
import { exited } from '../process-exit';

/**
 * PIDs of this user's processes whose environment holds `entry` (`NAME=value`, exactly). The
 * agents' daemons and re-parented Node processes outlive their tmux pane; each pane gets its
 * own home dir in its environment, so that entry names exactly what that pane started.
 */
export function processesWithEnv(entry: string): number[] {
  const found: number[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return found; // no /proc: nothing to find
  }
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(entry)) found.push(pid);
    } catch {
      // gone, or not ours
    }
  }
  return found;
}

/** Ends every process whose environment holds `entry`: TERM, then KILL after `graceMs`. */
export async function endProcessesWithEnv(entry: string, graceMs = 2_000): Promise<void> {
  const pids = processesWithEnv(entry);
  for (const pid of pids) signal(pid, 'SIGTERM');
  await Promise.all(pids.map(async (pid) => (await exited(pid, graceMs)) || signal(pid, 'SIGKILL')));
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // gone meanwhile
  }
}
