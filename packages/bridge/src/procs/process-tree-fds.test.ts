import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processTree, processTrees } from './process-tree';

// The soak saw the bridge at 3,672 open fds once: every lookup of a pane's process tree reads
// every process's stat file, and a bridge starting on many panes runs many lookups at once, each
// holding one descriptor per process. The real /proc, read by many lookups at once.
describe('process tree lookups at once', () => {
  it('never hold more than 64 procfs files open together', async () => {
    const fds = () => readdirSync('/proc/self/fd').length;
    const before = fds();
    let peak = before;
    let running = true;
    const watch = (async () => {
      while (running) {
        peak = Math.max(peak, fds());
        await new Promise((r) => setImmediate(r));
      }
    })();
    const procs = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length;
    const [lookups, trees] = await Promise.all([Promise.all(Array.from({ length: 10 }, () => processTree(process.pid))), processTrees([process.pid, 1])]);
    running = false;
    await watch;
    expect(lookups[0]?.[0]?.pid).toBe(process.pid);
    expect(trees.get(process.pid)?.[0]?.pid).toBe(process.pid);
    expect(procs * 10).toBeGreaterThan(64 * 4); // enough lookups to have opened far more at once
    expect(peak - before).toBeLessThanOrEqual(64 + 16);
  });
});
