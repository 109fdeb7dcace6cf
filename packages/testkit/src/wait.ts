/** A test on a captured screen: a RegExp, or a function of the screen text. */
export type ScreenPredicate = RegExp | ((screen: string) => boolean);

/** Options of {@link waitForScreen}. */
export interface WaitForScreenOptions {
  /** Default 10 s. */
  timeoutMs?: number;
  /** Re-capture interval; default 50 ms. */
  intervalMs?: number;
  /** Named in the timeout error. */
  what?: string;
}

/**
 * Calls `capture` until `predicate` holds and resolves with that screen. A terminal screen has
 * no change event outside control mode, so the test kit re-captures; on timeout the error
 * carries the last screen, which is what a failing test needs to show.
 *
 * @example
 * const screen = await waitForScreen(() => tmux.capture(pane), /ready/, { timeoutMs: 5_000 });
 */
export async function waitForScreen(
  capture: () => Promise<string>,
  predicate: ScreenPredicate,
  opts: WaitForScreenOptions = {},
): Promise<string> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const test = typeof predicate === 'function' ? predicate : (s: string) => predicate.test(s);
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    last = await capture();
    if (test(last)) return last;
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
  throw new Error(
    `waitForScreen: ${opts.what ?? 'screen'} did not match ${String(predicate)} within ${timeoutMs} ms; last screen:\n${trimScreen(last)}`,
  );
}

/** Drops trailing blank lines so an error shows the screen, not 40 empty rows. */
function trimScreen(screen: string): string {
  return screen.replace(/\s+$/, '');
}
