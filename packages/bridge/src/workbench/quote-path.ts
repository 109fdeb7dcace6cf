/**
 * A path as typed into a pane: bare when it holds nothing a reader splits on, else in double
 * quotes with `"` and `\` escaped, so a path with spaces (`~/Library/Application Support/…`,
 * `my notes.md`) stays one word to the agent. Pure.
 *
 * @example
 * quotePath('/s/uploads/a.png'); // '/s/uploads/a.png'
 * quotePath('/Users/me/Application Support/u.png'); // '"/Users/me/Application Support/u.png"'
 */
export function quotePath(path: string): string {
  return /^[^\s"'\\`$]+$/u.test(path) ? path : `"${path.replace(/["\\]/g, '\\$&')}"`;
}
