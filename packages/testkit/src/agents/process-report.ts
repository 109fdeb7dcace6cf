import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * What `pid` and every process under it are doing, as `ps` shows them: state, age, CPU time,
 * the kernel function each waits in, and the threads of each. An agent that never drew its
 * first screen is reported with this, so a rare stall says where it stood.
 *
 * @example
 * throw new Error(`never ready\n${await processesUnder(pid)}`);
 */
export async function processesUnder(pid: number): Promise<string> {
  if (!(pid > 0)) return 'no process was started';
  try {
    const { stdout } = await run('ps', ['-eo', 'pid=,ppid=,stat=,etimes=,time=,wchan:24=,args='], { maxBuffer: 8 << 20 });
    const rows = stdout.split('\n').filter(Boolean).map((line) => ({ line: line.trim(), f: line.trim().split(/\s+/) }));
    const under = new Set([pid]);
    // Parents come before children in pid order only mostly: repeat until nothing is added.
    for (let added = true; added; ) {
      added = false;
      for (const r of rows) {
        const [self, parent] = [Number(r.f[0]), Number(r.f[1])];
        if (under.has(self) || !under.has(parent)) continue;
        under.add(self);
        added = true;
      }
    }
    const mine = rows.filter((r) => under.has(Number(r.f[0]))).map((r) => r.line.slice(0, 300));
    if (mine.length === 0) return `process ${pid} had ended`;
    const threads = await run('ps', ['-L', '-o', 'tid=,stat=,wchan:24=,comm=', '-p', [...under].join(',')]).then(
      (t) => t.stdout.trimEnd(),
      () => '',
    );
    return `processes (pid ppid stat age cpu wchan args):\n${mine.join('\n')}\nthreads (tid stat wchan name):\n${threads}`;
  } catch (err) {
    return `processes could not be listed: ${(err as Error).message}`;
  }
}
