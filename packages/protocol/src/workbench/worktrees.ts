import { z } from 'zod';

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
