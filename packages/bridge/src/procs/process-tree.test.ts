import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectHarness } from './detect-harness';
import { processTree } from './process-tree';

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
