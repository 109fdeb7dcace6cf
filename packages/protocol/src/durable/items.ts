import { z } from 'zod';
import { LIMITS } from './limits';

/**
 * Chat items of wire v1. An item grows (`final: false`, text appended by `item.append`) and then
 * settles (`final: true`). Strings here are bounded only by the frame; the reader cuts them to
 * `LIMITS` and flags what it cut (see `fitItem`).
 */
export const WireId = z.string().min(1).max(LIMITS.id);
const text = z.string();

const itemBase = {
  id: WireId,
  /** When the item was made, epoch ms. */
  at: z.number().finite(),
  /** False while it grows; the phone draws a cursor and no time until it is true. */
  final: z.boolean().default(true),
};

export const UserItem = z.object({
  kind: z.literal('user'),
  ...itemBase,
  text,
  /** The request id of the phone's send this item echoes, so the phone's own line is replaced. */
  requestId: z.string().max(LIMITS.id).nullable().default(null),
});
export const ReplyItem = z.object({ kind: z.literal('reply'), ...itemBase, text });
export const ThinkingItem = z.object({ kind: z.literal('thinking'), ...itemBase, text });
export const NoticeItem = z.object({ kind: z.literal('notice'), ...itemBase, text });
export const MarkdownItem = z.object({ kind: z.literal('markdown'), ...itemBase, text });
export const CodeItem = z.object({ kind: z.literal('code'), ...itemBase, text, language: z.string().nullable().default(null) });
export const LinkItem = z.object({ kind: z.literal('link'), ...itemBase, url: z.string(), label: z.string().nullable().default(null) });
export const ToolStatus = z.enum(['running', 'done', 'failed', 'denied']);
export type ToolStatus = z.infer<typeof ToolStatus>;
export const ToolItem = z.object({
  kind: z.literal('tool'),
  ...itemBase,
  /** The tool call's id, shared with a question about it. */
  callId: z.string().max(LIMITS.id).nullable().default(null),
  name: z.string(),
  /** A one-line summary of the call's input. */
  input: z.string().default(''),
  status: ToolStatus,
  output: z.string().default(''),
});

export const WireItem = z.discriminatedUnion('kind', [UserItem, ReplyItem, ThinkingItem, NoticeItem, MarkdownItem, CodeItem, LinkItem, ToolItem]);
export type WireItem = z.infer<typeof WireItem>;
export type WireItemInput = z.input<typeof WireItem>;
export type ItemKind = WireItem['kind'];
export const ITEM_KINDS = ['user', 'reply', 'thinking', 'notice', 'markdown', 'code', 'link', 'tool'] as const satisfies readonly ItemKind[];
