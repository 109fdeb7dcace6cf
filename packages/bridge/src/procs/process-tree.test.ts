import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectHarness } from './detect-harness';
import type { Proc } from './proc-stat';
import { processTree, processTrees } from './process-tree';

// Real processes: a node child that runs `sh -c 'sleep 30; true'` (the `; true` keeps sh
// from exec-ing sleep in its place). Each is started in its own process group and killed by
// that group's id after the test.
const started: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is already gone.
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const CHILD = `require('node:child_process').spawn('sh', ['-c', 'sleep 30; true'], { stdio: 'ignore' });
setInterval(() => {}, 1000);`;

function start(args: string[]): number {
  const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore' });
  started.push(child);
  if (!child.pid) throw new Error('spawn failed');
  return child.pid;
}

/** Read the tree until it has the shape we wait for: the readiness signal is the tree itself. */
async function treeWhen(pid: number, ready: (procs: Proc[]) => boolean): Promise<Proc[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const procs = await processTree(pid);
    if (ready(procs)) return procs;
    if (Date.now() > deadline) throw new Error(`tree of ${pid} never got ready: ${JSON.stringify(procs)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('processTree', () => {
  it('finds a node child, its shell and the shell child, root first', async () => {
    const pid = start(['-e', CHILD]);
    const procs = await treeWhen(pid, (ps) => ps.some((p) => p.comm === 'sleep'));
    const [root, sh, sleep] = procs;
    expect(procs).toHaveLength(3);
    expect(root).toMatchObject({ pid, comm: 'node', argv: [process.execPath, '-e', CHILD] });
    expect(sh).toMatchObject({ ppid: pid, comm: 'sh', argv: ['sh', '-c', 'sleep 30; true'] });
    expect(sleep).toMatchObject({ ppid: sh?.pid, comm: 'sleep', argv: ['sleep', '30'] });
    expect(detectHarness(procs)).toBe('shell');
  });

  it('detects an agent run as a node script, under a shell', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'collie-procs-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'codex'), CHILD);
    const pid = start(['-e', `require('node:child_process').spawn(process.execPath, [${JSON.stringify(join(dir, 'bin', 'codex'))}], { stdio: 'ignore' });
setInterval(() => {}, 1000);`]);
    const procs = await treeWhen(pid, (ps) => ps.some((p) => p.comm === 'sleep'));
    expect(procs.map((p) => p.comm)).toEqual(['node', 'node', 'sh', 'sleep']);
    expect(procs[1]?.argv[1]).toBe(join(dir, 'bin', 'codex'));
    expect(detectHarness(procs)).toBe('codex');
  });

  it('is empty for a process that does not exist', async () => {
    // Above the kernel's pid_max ceiling (2^22), so never a live pid.
    await expect(processTree(2 ** 22 + 1)).resolves.toEqual([]);
  });

  it('answers several roots from one read', async () => {
    const trees = await processTrees([process.pid, 2 ** 22 + 1]);
    expect(trees.get(process.pid)?.[0]).toMatchObject({ pid: process.pid, ppid: process.ppid });
    expect(trees.get(2 ** 22 + 1)).toEqual([]);
  });
});

describe('processTree on a procfs fixture', () => {
  it('builds the tree from stat files and skips what vanished or is malformed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'collie-fakeproc-'));
    dirs.push(root);
    const add = (pid: number, stat: string | null, cmdline: string | null) => {
      mkdirSync(join(root, String(pid)));
      if (stat !== null) writeFileSync(join(root, String(pid), 'stat'), stat);
      if (cmdline !== null) writeFileSync(join(root, String(pid), 'cmdline'), cmdline);
    };
    add(10, '10 (bash) S 1 10 10 0 -1', '-bash\0');
    add(12, '12 (claude) S 10 12 10 0 -1', 'claude\0');
    add(11, '11 (git) S 10 11 10 0 -1', null);
    add(13, '13 (sh) S 12 13 10 0 -1', 'sh\0-c\0ls\0');
    add(14, null, null);
    add(15, 'garbage', 'x\0');
    add(20, '20 (other) S 1 20 20 0 -1', 'other\0');
    mkdirSync(join(root, 'self'));
    const procs = await processTree(10, { procRoot: root });
    expect(procs.map((p) => [p.pid, p.ppid, p.comm, p.argv])).toEqual([
      [10, 1, 'bash', ['-bash']],
      [11, 10, 'git', []],
      [12, 10, 'claude', ['claude']],
      [13, 12, 'sh', ['sh', '-c', 'ls']],
    ]);
    expect(detectHarness(procs)).toBe('claude');
  });
});
