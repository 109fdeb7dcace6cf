import { z } from 'zod';
import { RequestId } from '../send';

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
