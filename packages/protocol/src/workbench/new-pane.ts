import { z } from 'zod';
import { MAX_SEND_CHARS, RequestId } from '../send';

/* ── New: start an agent (or a shell) in a new tmux window from the phone ── */

/** A launcher: what runs (argv, no shell) and, optionally, the folder it starts in. */
export const Launcher = z
  .object({
    name: z.string().min(1).max(40).regex(/^[\p{L}\p{N} ._-]+$/u, 'a launcher name is letters, digits, spaces, . _ -'),
    command: z.array(z.string().min(1).max(500)).min(1).max(40),
    folder: z.string().min(1).max(1000).optional(),
  })
  .strict();
export type Launcher = z.infer<typeof Launcher>;

/** One extra argument a launcher's program gets from the phone (a flag, its value): 1–500 characters, no control characters. */
export const LauncherArg = z
  .string()
  .min(1)
  .max(500)
  .refine((a) => !/[\u0000-\u001f\u007f]/.test(a), 'an argument has no control characters');

/**
 * `POST /api/launchers`: saves a launcher in `<config>/launchers.json` (replacing a saved one of
 * the same name): the program of an offered launcher (`base`: a saved one, an agent found on
 * PATH, or the shell) with `args` after its own, started in `folder` (null: none, or the base's).
 */
export const SaveLauncherRequest = z
  .object({
    name: z.string().min(1).max(40).regex(/^[\p{L}\p{N} ._-]+$/u, 'a launcher name is letters, digits, spaces, . _ -'),
    base: z.string().min(1).max(40),
    args: z.array(LauncherArg).max(20),
    folder: z.string().min(1).max(1000).nullable(),
  })
  .strict();
export type SaveLauncherRequest = z.infer<typeof SaveLauncherRequest>;

/** `POST /api/launchers/remove`: removes a saved launcher by name. */
export const RemoveLauncherRequest = z.object({ name: z.string().min(1).max(40) }).strict();
export type RemoveLauncherRequest = z.infer<typeof RemoveLauncherRequest>;

/** `<config>/launchers.json`: the saved launchers, shown first. */
export const LaunchersFile = z.object({ launchers: z.array(Launcher).max(100) }).strict();
export type LaunchersFile = z.infer<typeof LaunchersFile>;

/** A launcher offered on the New page: saved ones first, then the agents found on PATH with their versions, then the shell. */
export const OfferedLauncher = Launcher.extend({ source: z.enum(['saved', 'agent', 'shell']), version: z.string().nullable() });
export type OfferedLauncher = z.infer<typeof OfferedLauncher>;

/** `GET /api/new`: what the New page offers. */
export const NewOptions = z.object({
  folders: z.array(z.object({ path: z.string(), repo: z.boolean(), recent: z.boolean() })),
  launchers: z.array(OfferedLauncher),
  /** Sessions a window can be opened in, per tmux server. */
  sessions: z.array(z.object({ server: z.string(), session: z.string() })),
  /** `COLLIE_WORKTREE_DIR`: new worktrees go to `<it>/<repo>/<branch>`; null: `<repo>/../<repo>-worktrees/<branch>`. */
  worktreeDir: z.string().nullable(),
});
export type NewOptions = z.infer<typeof NewOptions>;

/** A git branch name from the phone for a new worktree. */
export const BranchName = z
  .string()
  .min(1)
  .max(100)
  .refine((b) => /^[A-Za-z0-9._/-]+$/.test(b) && !b.startsWith('-') && !b.startsWith('/') && !b.endsWith('/') && !b.endsWith('.lock') && !b.includes('..') && !b.includes('//'), 'a branch name is letters, digits, . _ / -, without .. and not starting with - or /');

/** `POST /api/panes/new`. `session: null` opens a new session named after the folder. */
export const NewPaneRequest = z
  .object({
    folder: z.string().min(1).max(1000),
    launcher: z.string().min(1).max(40),
    server: z.string().min(1).max(200).optional(),
    session: z.string().min(1).max(100).nullable(),
    worktree: BranchName.nullable(),
    /** Extra arguments after the launcher's own command (its flags for this one start). */
    args: z.array(LauncherArg).max(20).optional(),
    first_message: z.string().min(1).max(MAX_SEND_CHARS).nullable(),
    request_id: RequestId,
  })
  .strict();
export type NewPaneRequest = z.infer<typeof NewPaneRequest>;

/** The new pane's id (the phone goes to it) and the folder it runs in (the worktree's, when one was made). */
export const NewPaneAnswer = z.object({ pane: z.string(), folder: z.string() });
export type NewPaneAnswer = z.infer<typeof NewPaneAnswer>;
