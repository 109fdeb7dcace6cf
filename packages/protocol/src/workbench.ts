import { z } from 'zod';
import { MAX_SEND_CHARS, RequestId } from './send';

/**
 * Work from the phone: attachments (and, as they land, changes, new panes, files). Every
 * body and answer of the `/api/uploads` and `/api/panes/:id/send-files` routes.
 */

/** At most this many bytes per uploaded file. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** At most this many files ride with one message. */
export const MAX_ATTACHMENTS = 10;
/** Uploads are removed this long after they arrive. */
export const UPLOAD_TTL_MS = 48 * 60 * 60 * 1000;

/** An upload's id: `u_` and 16 hex digits, chosen by the bridge. */
export const UploadId = z.string().regex(/^u_[0-9a-f]{16}$/, 'an upload id is u_ and 16 hex digits');
export type UploadId = z.infer<typeof UploadId>;

/** What the bytes are (never what the name says). */
export const UploadType = z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain']);
export type UploadType = z.infer<typeof UploadType>;

/** One stored upload. `name` is the sanitised file name the agent sees at the end of the path. */
export const Upload = z.object({
  id: UploadId,
  name: z.string().min(1).max(120),
  type: UploadType,
  size: z.number().int().min(1).max(MAX_UPLOAD_BYTES),
  /** ISO time after which the bridge removes it. */
  expiresAt: z.string(),
});
export type Upload = z.infer<typeof Upload>;

/** `POST /api/uploads?name=<file name>` (raw bytes, `application/octet-stream`) answers this. */
export const UploadAnswer = z.object({ upload: Upload });
export type UploadAnswer = z.infer<typeof UploadAnswer>;

/**
 * `POST /api/panes/:id/send-files`: a send through the send protocol whose text is the
 * attachments' paths in the agent's own syntax, then `text` (which may be empty).
 */
export const SendFilesRequest = z
  .object({
    text: z.string().max(MAX_SEND_CHARS),
    attachments: z.array(UploadId).min(1).max(MAX_ATTACHMENTS),
    request_id: RequestId,
  })
  .strict();
export type SendFilesRequest = z.infer<typeof SendFilesRequest>;

/* ── Changes: a pane's working-tree diff, and review comments sent back to the agent ── */

/** How a file differs from HEAD. */
export const ChangeStatus = z.enum(['modified', 'added', 'deleted', 'renamed', 'untracked']);
export type ChangeStatus = z.infer<typeof ChangeStatus>;

/** One diff line: `add`, `del` or `ctx`, with its line numbers on the old and new side. */
export const DiffLine = z.object({
  kind: z.enum(['add', 'del', 'ctx']),
  old: z.number().int().nullable(),
  new: z.number().int().nullable(),
  text: z.string(),
});
export type DiffLine = z.infer<typeof DiffLine>;

export const DiffHunk = z.object({ header: z.string(), lines: z.array(DiffLine) });
export type DiffHunk = z.infer<typeof DiffHunk>;

export const ChangedFile = z.object({
  path: z.string(),
  /** The path before a rename. */
  oldPath: z.string().nullable(),
  status: ChangeStatus,
  binary: z.boolean(),
  additions: z.number().int(),
  deletions: z.number().int(),
  /** Staged (in the index) and/or unstaged (in the working tree only). */
  staged: z.boolean(),
  unstaged: z.boolean(),
  hunks: z.array(DiffHunk),
  /** Lines of this file's diff left out of this page (a huge file is cut, never sent whole). */
  cut: z.number().int(),
  /** Why a file's contents are not shown, in words (a new file too large to read). */
  note: z.string().optional(),
});
export type ChangedFile = z.infer<typeof ChangedFile>;

/** `GET /api/panes/:id/changes?page=N`. */
export const ChangesAnswer = z.object({
  /** The repository's top folder (as the pane's cwd shows it). */
  root: z.string(),
  branch: z.string().nullable(),
  files: z.array(ChangedFile),
  /** Every changed and untracked path, on every page (the list the diff is paged from). */
  paths: z.array(z.object({ path: z.string(), status: ChangeStatus })),
  page: z.number().int().min(0),
  pages: z.number().int().min(1),
});
export type ChangesAnswer = z.infer<typeof ChangesAnswer>;

/** A repository-relative path from the phone: no `..` segment, not absolute, no control characters. */
export const RepoPath = z
  .string()
  .min(1)
  .max(1000)
  .refine((p) => !p.startsWith('/') && !p.split('/').some((s) => s === '..' || s === '.' || s === '') && !/[\u0000-\u001f\u007f]/.test(p), 'a path inside the repository, without .. or control characters');

/** One comment on one line of the diff. */
export const ReviewComment = z
  .object({
    path: RepoPath,
    /** The line number on the side it was made on. */
    line: z.number().int().min(1),
    side: z.enum(['new', 'old']),
    /** The line's text as the phone showed it, quoted in the message. */
    code: z.string().max(500),
    text: z.string().min(1).max(4000),
  })
  .strict();
export type ReviewComment = z.infer<typeof ReviewComment>;

/** `POST /api/panes/:id/review`: the comments as one message through the send protocol. */
export const ReviewRequest = z.object({ comments: z.array(ReviewComment).min(1).max(50), request_id: RequestId }).strict();
export type ReviewRequest = z.infer<typeof ReviewRequest>;

/**
 * `GET /api/panes/:id/changes/wait`: answers once a file of the repository changes
 * (`changed: true`, a watcher, no polling) or after about 25 s with nothing (`changed: false`).
 */
export const ChangesWaitAnswer = z.object({ changed: z.boolean() });
export type ChangesWaitAnswer = z.infer<typeof ChangesWaitAnswer>;

/* ── Panes: rename a pane's window, close a pane ── */

/**
 * A tmux window name from the phone: 1–60 characters, no control or format characters, not
 * starting with `-` (tmux would read an option), and no `#[` (tmux keeps it as `##[`, a style
 * escape, so the name would not read back as typed).
 */
export const WindowName = z
  .string()
  .min(1)
  .max(60)
  .refine((n) => !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(n) && n.trim() === n && !n.startsWith('-'), 'a window name is 1 to 60 printable characters, not starting with - and without spaces at its ends')
  .refine((n) => !n.includes('#['), 'a window name cannot hold #[ (tmux reads it as a style)');

/**
 * `POST /api/panes/:id/rename`: the pane's label from now on (the row, the pane page, walky,
 * pushes), kept across bridge restarts while the pane lives; `null` gives the automatic label
 * (`<repo>#<branch>`, else the title) back. The tmux window's name is left alone.
 */
export const RenameRequest = z.object({ name: WindowName.nullable() }).strict();
export type RenameRequest = z.infer<typeof RenameRequest>;

/**
 * `POST /api/panes/:id/close`: kills the pane. `mid_turn: true` says the person confirmed
 * closing an agent that is working (the second tap); without it a working pane is refused.
 */
export const CloseRequest = z.object({ mid_turn: z.boolean() }).strict();
export type CloseRequest = z.infer<typeof CloseRequest>;

/** The answer of rename and close. */
export const PaneActionAnswer = z.object({ ok: z.literal(true) });
export type PaneActionAnswer = z.infer<typeof PaneActionAnswer>;

/* ── Quick replies: saved one-tap texts, in `<config>/quick-replies.json` ── */

/** One quick reply: a short label on the chip and the text it sends. */
export const QuickReply = z.object({ label: z.string().min(1).max(24), text: z.string().min(1).max(2000) }).strict();
export type QuickReply = z.infer<typeof QuickReply>;

/** The file and the body of `GET`/`POST /api/quick-replies`: at most 20. */
export const QuickReplies = z.object({ replies: z.array(QuickReply).max(20) }).strict();
export type QuickReplies = z.infer<typeof QuickReplies>;

/* ── Files: browse the pane's repository (or folder) read-only ── */

/** A text file over this is said, not shown. */
export const MAX_FILE_VIEW_BYTES = 1024 * 1024;
/** An image over this is said, not shown. */
export const MAX_IMAGE_VIEW_BYTES = 5 * 1024 * 1024;
/** At most this many entries of one folder are listed (then `truncated`). */
export const MAX_DIR_ENTRIES = 2000;

/** A path from the phone inside the pane's root: `''` is the root itself; else as `RepoPath`. */
export const FilePath = z.union([z.literal(''), RepoPath]);

export const FileEntry = z.object({
  name: z.string(),
  kind: z.enum(['dir', 'file', 'link']),
  /** Bytes for a file; null for a folder or a link. */
  size: z.number().int().min(0).nullable(),
  /** Git ignores it (listed only with `ignored=1`). */
  ignored: z.boolean(),
});
export type FileEntry = z.infer<typeof FileEntry>;

/** `GET /api/panes/:id/files?path=P&ignored=1`: one folder of the pane's root, folders first. */
export const FilesAnswer = z.object({
  /** The absolute root: the repository's top folder, or the pane's folder outside a repository. */
  root: z.string(),
  /** The pane's folder, relative to the root (`''` when it is the root): where the browser opens. */
  start: z.string(),
  path: z.string(),
  entries: z.array(FileEntry),
  /** How many git-ignored entries were left out. */
  hidden: z.number().int().min(0),
  truncated: z.boolean(),
});
export type FilesAnswer = z.infer<typeof FilesAnswer>;

/** `GET /api/panes/:id/file?path=P`: one file, read-only. Binary and huge files are said, not shown. */
export const FileAnswer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), path: z.string(), size: z.number().int(), text: z.string() }),
  z.object({ kind: z.literal('image'), path: z.string(), size: z.number().int(), type: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']), base64: z.string() }),
  z.object({ kind: z.literal('binary'), path: z.string(), size: z.number().int() }),
  z.object({ kind: z.literal('too_large'), path: z.string(), size: z.number().int(), limit: z.number().int() }),
]);
export type FileAnswer = z.infer<typeof FileAnswer>;

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

/* ── Worktrees: the linked worktrees of the repositories the New page offers, and removing one ── */

/** One linked worktree (never a repository's main one) with what removing it would lose. */
export const Worktree = z.object({
  /** The main worktree's folder (the repository). */
  repo: z.string(),
  path: z.string(),
  /** Its branch, or null when its HEAD is detached. */
  branch: z.string().nullable(),
  /** The panes whose folder is inside it: while any runs there it cannot be removed. */
  panes: z.array(z.string()),
  /** The branch's tip is in the repository's HEAD (nothing of it would be lost). */
  merged: z.boolean(),
  /** Commits of the branch found on no remote and no other branch: removing the branch loses them. */
  unpushed: z.number().int().min(0),
  /** Changed and untracked files in the worktree (`git status`): removing it loses them. */
  dirty: z.number().int().min(0),
  /** The folder is gone already (git would prune it). */
  missing: z.boolean(),
});
export type Worktree = z.infer<typeof Worktree>;

/** `GET /api/worktrees`. */
export const WorktreesAnswer = z.object({ worktrees: z.array(Worktree) });
export type WorktreesAnswer = z.infer<typeof WorktreesAnswer>;

/**
 * `POST /api/worktrees/remove`: removes the worktree's folder and its branch. A worktree with
 * unpushed commits or dirty files is removed only with `confirm: true` (the phone's second tap).
 */
export const RemoveWorktreeRequest = z.object({ path: z.string().min(1).max(1000), confirm: z.boolean() }).strict();
export type RemoveWorktreeRequest = z.infer<typeof RemoveWorktreeRequest>;

export const RemoveWorktreeAnswer = z.object({ removed: z.string(), branch: z.string().nullable() });
export type RemoveWorktreeAnswer = z.infer<typeof RemoveWorktreeAnswer>;
