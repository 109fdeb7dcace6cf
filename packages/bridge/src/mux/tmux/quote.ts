/**
 * Quote one argument for tmux's command parser. Inside single quotes tmux takes every
 * character literally (tmux(1) "PARSING SYNTAX"), so the only character to handle is the
 * single quote itself, closed, escaped outside quotes, and reopened. Bare, `$` expands an
 * environment variable (`a$b` became `a`) or fails to parse (`$`, `a$`), and so does a word
 * starting with `%` (`%a`): only ids (`$1`, `%12`, `@3`) go bare with them.
 *
 * A line break would end the control-mode command line, so an argument holding one goes in
 * double quotes, where tmux reads `\ooo` as that byte (tmux 3.3a cmd-parse.y): every control
 * byte is written so, and `\`, `"`, `$` and `~` (which expand there) are escaped.
 */
export function quoteArg(arg: string): string {
  if (/[\n\r]/.test(arg)) return `"${arg.replace(/[\\"$~]/g, '\\$&').replace(/[\x00-\x1f\x7f]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`)}"`;
  if (/^[A-Za-z0-9_@:.,/=+-]+$/.test(arg) || /^[$%@]\d+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Join a command name and its arguments into one control-mode command line. */
export function commandLine(args: readonly string[]): string {
  return args.map(quoteArg).join(' ');
}

/**
 * A value tmux takes literally where it expands formats: `new-window`/`new-session`/
 * `split-window` `-c` and `-n`, `rename-window`, `load-buffer`'s path, `display-message`'s
 * message (tmux 3.3a: spawn.c, cmd-rename-window.c, cmd-load-buffer.c). Every format starts
 * with `#` (`#(…)` runs a shell command, `#{…}` reads a variable) and `##` is a literal `#`,
 * so each `#` is doubled; except that tmux copies a run of `#` followed by `[` through as it
 * is (a style, format.c `format_expand1`), so such a run is left alone.
 *
 * @example
 * ['new-window', '-c', formatLiteral('/src/x#(touch PWNED)')] // tmux opens '/src/x#(touch PWNED)'
 */
export function formatLiteral(value: string): string {
  return value.replace(/#+/g, (run, at: number) => (value[at + run.length] === '[' ? run : run + run));
}
