/**
 * The two files of `/proc/<pid>/` we read, parsed without I/O.
 * Layouts per proc(5).
 */

/** One process: its id, its parent, the kernel's short name and its arguments. */
export interface Proc {
  readonly pid: number;
  readonly ppid: number;
  /** `comm`: the executable's name, cut to 15 bytes, or what the process set (`prctl`). */
  readonly comm: string;
  /** From `cmdline`; empty for kernel threads and zombies. */
  readonly argv: readonly string[];
}

/** The fields of `/proc/<pid>/stat` we use. */
export interface StatLine {
  readonly pid: number;
  readonly comm: string;
  readonly ppid: number;
}

/**
 * Parse `/proc/<pid>/stat`: `pid (comm) state ppid …`. `comm` may itself hold spaces and
 * parentheses (`(sd-pam)`, a process named `a) b`), so it runs to the *last* `)`.
 * Returns null for text of any other shape.
 */
export function parseStat(text: string): StatLine | null {
  const open = text.indexOf(' (');
  const close = text.lastIndexOf(') ');
  if (open < 1 || close < open) return null;
  const pidText = text.slice(0, open);
  const ppidText = text.slice(close + 2).split(' ')[1] ?? '';
  if (!/^\d{1,10}$/.test(pidText) || !/^\d{1,10}$/.test(ppidText)) return null;
  return { pid: Number(pidText), comm: text.slice(open + 2, close), ppid: Number(ppidText) };
}

/**
 * Parse `/proc/<pid>/cmdline`: arguments each ended by NUL. A process that rewrote its
 * arguments (`process.title`, `setproctitle`) may leave NUL padding at the end, dropped here.
 */
export function parseCmdline(text: string): string[] {
  const argv = text.split('\0');
  while (argv.length > 0 && argv[argv.length - 1] === '') argv.pop();
  return argv;
}
