import type { Harness } from '@collie/protocol';
import { detectHarness, processTrees } from '../procs';
import { paneLabel } from '../labels';
import type { TmuxPane } from '../mux/tmux';

/** Panes asking within this window share one pass over /proc. */
const BATCH_MS = 5;
let batch: Map<number, ((h: Harness) => void)[]> | null = null;

async function flush(): Promise<void> {
  const asked = batch;
  batch = null;
  if (!asked) return;
  let trees: Map<number, Parameters<typeof detectHarness>[0]>;
  try {
    trees = await processTrees([...asked.keys()]);
  } catch {
    trees = new Map();
  }
  for (const [pid, waiters] of asked) {
    const h = detectHarness(trees.get(pid) ?? []);
    for (const w of waiters) w(h);
  }
}

/**
 * Which agent runs in a pane, from its process tree (agents often run under node). When a
 * server with many panes is found, every pane asks at once: they share one /proc scan.
 */
export function harnessOfPane(info: TmuxPane): Promise<Harness> {
  return new Promise((resolve) => {
    if (!batch) {
      batch = new Map();
      setTimeout(() => void flush(), BATCH_MS);
    }
    const waiters = batch.get(info.pid);
    if (waiters) waiters.push(resolve);
    else batch.set(info.pid, [resolve]);
  });
}

/** `<repo>#<branch>` from git in the pane's cwd, else its title. */
export function labelOfPane(info: TmuxPane): Promise<string> {
  return paneLabel({ cwd: info.cwd, title: info.title });
}
