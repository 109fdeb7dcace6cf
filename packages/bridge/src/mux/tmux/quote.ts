/**
 * Quote one argument for tmux's command parser. Inside single quotes tmux takes every
 * character literally (tmux(1) "PARSING SYNTAX"), so the only character to handle is the
 * single quote itself, closed, escaped outside quotes, and reopened. Bare, `$` expands an
 * environment variable (`a$b` became `a`) or fails to parse (`$`, `a$`), and so does a word
 * starting with `%` (`%a`): only ids (`$1`, `%12`, `@3`) go bare with them.
 */
export function quoteArg(arg: string): string {
  if (/[\n\r]/.test(arg)) throw new Error(`tmux: an argument cannot contain a line break: ${JSON.stringify(arg)}`);
  if (/^[A-Za-z0-9_@:.,/=+-]+$/.test(arg) || /^[$%@]\d+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Join a command name and its arguments into one control-mode command line. */
export function commandLine(args: readonly string[]): string {
  return args.map(quoteArg).join(' ');
}
