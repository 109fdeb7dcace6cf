import { z } from 'zod';

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
