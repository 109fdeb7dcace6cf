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

/** A tmux window name from the phone: 1–60 characters, no control or format characters, not starting with `-` (tmux would read an option). */
export const WindowName = z
  .string()
  .min(1)
  .max(60)
  .refine((n) => !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(n) && n.trim() === n && !n.startsWith('-'), 'a window name is 1 to 60 printable characters, not starting with - and without spaces at its ends');

/** `POST /api/panes/:id/rename`: renames the pane's tmux window. */
export const RenameRequest = z.object({ name: WindowName }).strict();
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
