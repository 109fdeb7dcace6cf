/**
 * Context windows of models whose agent records none. Claude Code's transcript names the model
 * but not its window: these are the windows of Claude Code's own model registry (its
 * `context.window` per model id, read from the pinned Claude Code 2.1 build), so the share shown
 * is the one Claude Code itself works with. A `[1m]` suffix (Claude Code's 1M-context choice) is
 * 1M. A model not listed here has no window: nothing is guessed. A pane's usage says
 * `windowFrom: 'table'` for these.
 */
const WINDOWS: Readonly<Record<string, number>> = {
  'claude-3-5-haiku': 200_000,
  'claude-haiku-4-5': 200_000,
  'claude-opus-4-0': 200_000,
  'claude-opus-4-1': 200_000,
  'claude-opus-4-5': 200_000,
  'claude-opus-4-6': 200_000,
  'claude-opus-4-7': 1_000_000,
  'claude-opus-4-8': 1_000_000,
  'claude-opus-5': 1_000_000,
  'claude-opus-5-5': 1_000_000,
  'claude-sonnet-4-0': 200_000,
  'claude-sonnet-4-5': 200_000,
  'claude-sonnet-4-6': 200_000,
  'claude-sonnet-5': 1_000_000,
  'claude-sonnet-5-5': 1_000_000,
  'claude-fable-5': 1_000_000,
  'claude-fable-5-1': 1_000_000,
  'claude-fable-5-2': 1_000_000,
  'claude-mythos-5': 1_000_000,
  'claude-mythos-5-1': 1_000_000,
  'claude-mythos-5-2': 1_000_000,
};

/** The window of `model` from the table, or undefined when it is not a known model. */
export function knownWindow(model: string): number | undefined {
  if (/\[1m\]$/i.test(model)) return 1_000_000;
  // A dated id (`claude-opus-4-5-20251101`) is its model's.
  // Own keys only: a model named `constructor` or `toString` is no known model.
  const key = model.replace(/-\d{8}$/, '');
  return Object.hasOwn(WINDOWS, key) ? WINDOWS[key] : undefined;
}
