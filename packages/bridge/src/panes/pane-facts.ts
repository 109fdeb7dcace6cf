import type { Harness } from '@collie/protocol';
import { detectHarness, processTrees } from '../procs';
import { detectHarnessFromScreen } from '../harness';
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

/** Foreground commands that are shells: a pane running one shows whatever was printed last. */
const SHELLS = new Set(['bash', 'zsh', 'fish', 'sh', 'dash', 'ksh', 'mksh', 'tcsh', 'csh', 'nu', 'elvish', 'xonsh', 'login']);

/**
 * The harness from the process tree, with the screen as the tie-breaker: an agent the tree
 * does not name (a wrapper script, an unusual install) but whose screen is unmistakable.
 * A shell in the foreground never counts, so `cat`-ing a saved agent screen stays a shell.
 */
export function harnessFromFacts(fromProcs: Harness, command: string, screen: string): Harness {
  if (fromProcs !== 'shell' || SHELLS.has(command.replace(/^-/, ''))) return fromProcs;
  return detectHarnessFromScreen(screen) ?? 'shell';
}
