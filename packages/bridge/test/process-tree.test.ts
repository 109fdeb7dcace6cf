import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectHarness } from '../src/procs/detect-harness';
import type { Proc } from '../src/procs/proc-stat';
import { processTree, processTrees } from '../src/procs/process-tree';

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
