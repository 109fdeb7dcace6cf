import { readFileSync } from 'node:fs';

/**
 * Whether `pid` is gone within `ms`. tmux servers and pane processes are not our children,
 * so there is no exit event to await; this looks again every 20 ms.
 */
export async function exited(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (running(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/**
 * Whether `pid` still runs. A zombie counts as gone: the daemonised server's parent is PID 1,
 * and in containers PID 1 may never reap it.
 */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}
