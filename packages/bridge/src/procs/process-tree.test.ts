import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectHarness } from './detect-harness';
import { SLICE, sliceTurns } from './proc-read';
import { processTree, statPasses } from './process-tree';

// The tree of real processes is tested in packages/bridge/test/process-tree.test.ts.
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
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

describe('one pass over the stat files, shared', () => {
  it('a look with passSince takes the latest pass begun since then; a look without it reads again', async () => {
    const root = mkdtempSync(join(tmpdir(), 'collie-fakeproc-'));
    dirs.push(root);
    const add = (pid: number, ppid: number, comm: string) => {
      mkdirSync(join(root, String(pid)));
      writeFileSync(join(root, String(pid), 'stat'), `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1`);
      writeFileSync(join(root, String(pid), 'cmdline'), `${comm}\0`);
    };
    add(10, 1, 'bash');
    const before = Date.now();
    const passes = statPasses.count;
    expect((await processTree(10, { procRoot: root })).map((p) => p.pid)).toEqual([10]);
    add(11, 10, 'codex');
    // Begun since `before`: the pass already made is taken, so the new process is not in it.
    expect((await processTree(10, { procRoot: root, passSince: before })).map((p) => p.pid)).toEqual([10]);
    expect(statPasses.count).toBe(passes + 1);
    // Asked for a pass begun later than the last one: read again.
    expect((await processTree(10, { procRoot: root, passSince: Date.now() + 1 })).map((p) => p.pid)).toEqual([10, 11]);
    // No passSince: always read now.
    add(12, 11, 'sh');
    expect((await processTree(10, { procRoot: root })).map((p) => p.pid)).toEqual([10, 11, 12]);
    expect(statPasses.count).toBe(passes + 3);
  });

  it('looks begun together share one pass: a hundred trees, one read of the stat files', async () => {
    const root = mkdtempSync(join(tmpdir(), 'collie-fakeproc-'));
    dirs.push(root);
    for (let pid = 100; pid < 200; pid++) {
      mkdirSync(join(root, String(pid)));
      writeFileSync(join(root, String(pid), 'stat'), `${pid} (agent) S 1 ${pid} ${pid} 0 -1`);
    }
    const since = Date.now();
    const passes = statPasses.count;
    const trees = await Promise.all(Array.from({ length: 100 }, (_, i) => processTree(100 + i, { procRoot: root, passSince: since })));
    expect(trees.map((t) => t[0]?.pid)).toEqual(Array.from({ length: 100 }, (_, i) => 100 + i));
    expect(statPasses.count).toBe(passes + 1);
  });
});

describe('a pass over many stat files', () => {
  it('reads them synchronously, SLICE in a turn of the event loop', async () => {
    const root = mkdtempSync(join(tmpdir(), 'collie-fakeproc-'));
    dirs.push(root);
    const n = 20 * SLICE;
    for (let pid = 2; pid < n + 2; pid++) {
      mkdirSync(join(root, String(pid)));
      // Children of init: the tree of pid 2 is itself.
      writeFileSync(join(root, String(pid), 'stat'), `${pid} (p${pid}) S 1 ${pid} ${pid} 0 -1`);
    }
    const passes = statPasses.count;
    const turns = sliceTurns.count;
    const procs = await processTree(2, { procRoot: root });
    expect(procs.map((p) => p.pid)).toEqual([2]);
    expect(statPasses.count).toBe(passes + 1);
    // SLICE read in the turn the pass began, the rest SLICE a turn after it.
    expect(sliceTurns.count - turns).toBe(n / SLICE - 1);
  });
});
