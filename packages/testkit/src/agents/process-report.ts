import { readdirSync, readFileSync } from 'node:fs';

/** A /proc file's text, or '' when the process or task has gone. */
function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** State, parent, CPU ticks and the kernel function it waits in, from `/proc/<pid>[/task/<tid>]`. */
function described(dir: string): { state: string; ppid: number; ticks: number; wchan: string } | null {
  const stat = read(`${dir}/stat`);
  // Fields after the command name (which may hold spaces and parentheses).
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (f.length < 13) return null;
  return { state: f[0]!, ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), wchan: read(`${dir}/wchan`) || '-' };
}

/**
 * What `pid` and every process under it are doing, read from /proc: state, CPU ticks, the
 * kernel function each waits in, its command line, and the same for each of its threads. An
 * agent that never drew its first screen is reported with this, so a rare stall says where it
 * stood.
 *
 * @example
 * throw new Error(`never ready\n${processesUnder(pid)}`);
 */
export function processesUnder(pid: number): string {
  if (!(pid > 0)) return 'no process was started';
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return 'processes could not be listed: no /proc here';
  }
  const all = new Map<number, NonNullable<ReturnType<typeof described>>>();
  for (const name of names) {
    const d = /^\d+$/.test(name) ? described(`/proc/${name}`) : null;
    if (d) all.set(Number(name), d);
  }
  const under = new Set([pid]);
  // Children may have lower pids than their parents: repeat until nothing is added.
  for (let added = true; added; ) {
    added = false;
    for (const [p, d] of all) {
      if (under.has(p) || !under.has(d.ppid)) continue;
      under.add(p);
      added = true;
    }
  }
  const lines: string[] = [];
  for (const p of under) {
    const d = all.get(p);
    if (!d) continue;
    const args = read(`/proc/${p}/cmdline`).split('\0').filter(Boolean).join(' ').slice(0, 300);
    lines.push(`process ${p} (parent ${d.ppid}) ${d.state} ${d.ticks} ticks, waits in ${d.wchan}: ${args}`);
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      // gone meanwhile
    }
    for (const tid of tasks) {
      const t = described(`/proc/${p}/task/${tid}`);
      if (t) lines.push(`  thread ${tid} ${t.state} ${t.ticks} ticks, waits in ${t.wchan}`);
    }
  }
  return lines.length > 0 ? lines.join('\n') : `process ${pid} had ended`;
}
