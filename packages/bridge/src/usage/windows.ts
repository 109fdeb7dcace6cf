/**
 * Context windows of models whose agent records none. Claude Code's transcript names the model
 * but not its window: these are Anthropic's published windows (the models overview of the
 * Claude docs: 200K tokens for every Claude 3, 3.5, 3.7 and 4.x model; 1M where Claude Code
 * asks for the 1M-context beta, which it marks with a `[1m]` suffix). A model not listed here
 * has no window: nothing is guessed. A pane's usage says `windowFrom: 'table'` for these.
 */
const KNOWN: ReadonlyArray<readonly [RegExp, number]> = [
  [/\[1m\]$/i, 1_000_000],
  [/^claude-(?:3-(?:5-|7-)?(?:opus|sonnet|haiku)|(?:opus|sonnet|haiku)-4)/, 200_000],
];

/** The window of `model` from the table, or undefined when it is not a known model. */
export function knownWindow(model: string): number | undefined {
  for (const [re, tokens] of KNOWN) if (re.test(model)) return tokens;
  return undefined;
}
