import { z } from 'zod';
import { DurableItem } from './durable/model';

/**
 * A pane's Chat: the agent's conversation read from the transcript the agent writes itself
 * (Claude Code's session JSONL, Codex's rollout), as the same chat items durable agents use.
 */

/** Which transcript a pane's chat is read from. */
export const PaneChatSource = z.object({
  /** The agent that writes it (`claude`, `codex`). */
  agent: z.string(),
  /** The file, as the bridge opened it. */
  path: z.string(),
  /** The agent's session id, when the file names one. */
  session: z.string().nullable(),
});
export type PaneChatSource = z.infer<typeof PaneChatSource>;

/**
 * A picture the agent's transcript carries (Claude Code: an `image` block in a tool result, as
 * when the agent Reads a PNG, or in a message pasted into the TUI). Never the bytes: `ref` names
 * the block (`<line offset>.<block>[.<part>]`), which the phone reads from
 * `GET /api/panes/:id/chat/images/:ref`.
 */
export const PaneChatImage = z.object({
  ref: z.string().regex(/^\d{1,15}\.\d{1,4}(\.\d{1,4})?$/),
  mediaType: z.string(),
});
export type PaneChatImage = z.infer<typeof PaneChatImage>;

/** A pane chat item: a chat item as durable agents use, with the pictures its block carries. */
export const PaneChatItem = DurableItem.and(z.object({ images: z.array(PaneChatImage).optional() }));
export type PaneChatItem = z.infer<typeof PaneChatItem>;

/** Items are ordered by their place in the transcript: `before` pages back from there. */
export const PaneChatPage = z.object({
  /** The pane (`<server>:<%id>`). */
  id: z.string(),
  /** Null when no transcript was found for the pane; `reason` then says why in one line. */
  source: PaneChatSource.nullable(),
  reason: z.string().nullable(),
  /** Oldest first. */
  items: z.array(PaneChatItem),
  /** The cursor for older items (`GET …/chat?before=`), or null at the transcript's start. */
  before: z.string().nullable(),
});
export type PaneChatPage = z.infer<typeof PaneChatPage>;

/**
 * On `/api/events`, to a client that sent `chat.subscribe`: first a page with `reset: true`
 * (the latest items, or why there are none), then `reset: false` messages whose items are new
 * or changed (matched by id: a tool item changes when its result lands). A pane whose agent
 * starts a new transcript (`/clear`, a resume) is sent a new `reset: true` page.
 */
export const PaneChatMessage = PaneChatPage.extend({ type: z.literal('pane.chat'), reset: z.boolean() });
export type PaneChatMessage = z.infer<typeof PaneChatMessage>;

/** `GET /api/panes/:id/chat?before=&limit=`: the query. */
export const PaneChatQuery = z.object({
  before: z
    .string()
    .regex(/^\d{1,15}$/, 'before is a cursor from an earlier page')
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type PaneChatQuery = z.infer<typeof PaneChatQuery>;

/** Client to bridge: follow a pane's chat, or stop. */
export const ChatSubscribe = z.object({ type: z.literal('chat.subscribe'), id: z.string().min(1).max(200) });
export const ChatUnsubscribe = z.object({ type: z.literal('chat.unsubscribe'), id: z.string().min(1).max(200) });
