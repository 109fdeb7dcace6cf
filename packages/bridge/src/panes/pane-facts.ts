import type { Harness } from '@collie/protocol';
import { detectHarness, processTree } from '../procs';
import { paneLabel } from '../labels';
import type { TmuxPane } from '../mux/tmux';

/** Which agent runs in a pane, from its process tree (agents often run under node). */
export async function harnessOfPane(info: TmuxPane): Promise<Harness> {
  try {
    return detectHarness(await processTree(info.pid));
  } catch {
    return 'shell'; // the process ended between the listing and the look
  }
}

/** `<repo>#<branch>` from git in the pane's cwd, else its title. */
export function labelOfPane(info: TmuxPane): Promise<string> {
  return paneLabel({ cwd: info.cwd, title: info.title });
}
