import type { TmuxServer } from '@collie/testkit';

/** When `predicate` first holds on the pane's screen, read as often as tmux allows (~every 20 ms). */
export async function screenTurns(tmux: TmuxServer, pane: string, predicate: (s: string) => boolean, ms = 30_000): Promise<number> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (predicate(await tmux.capture(pane))) return Date.now();
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the screen never turned: ${await tmux.capture(pane)}`);
}
