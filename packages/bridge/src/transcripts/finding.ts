// What a transcript finder (find-*.ts) reads and answers: shared by finders.ts and each finder,
// so each imports this file and finders.ts imports the finders, one way.

/** What the bridge reads of one agent process to find its transcript. */
export interface AgentProcess {
  readonly pid: number;
  /** Clock ticks after boot (`/proc/<pid>/stat` field 22); null when unreadable. */
  readonly startTime: number | null;
  /** When it started, epoch ms (boot time plus `startTime`); null when unreadable. */
  readonly startedAt: number | null;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string | null;
  /** Regular files it holds open, from `/proc/<pid>/fd`. */
  readonly files: readonly string[];
  /** The same with their descriptor numbers (`/proc/<pid>/fdinfo/<fd>` says where each stands). */
  readonly fds: ReadonlyArray<{ readonly fd: number; readonly path: string }>;
}

/**
 * A transcript found, or why not in one line; `watch`: folders whose changes may change the
 * answer. `watchSuffices`: whatever would find it shows as a change in those folders (a
 * registry written, a transcript made), so while every one of them is watched, no look on a
 * timer is needed.
 */
export type Finding =
  | { readonly found: true; readonly path: string; readonly session: string | null; readonly watch: readonly string[] }
  | { readonly found: false; readonly reason: string; readonly watch: readonly string[]; readonly watchSuffices?: true };
