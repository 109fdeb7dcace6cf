import { z } from 'zod';
import { WireItem } from './items';
import { KnownQuestion, WireAnswer } from './questions';
import { WireId } from './items';
import { ClosedConversation, ConversationMeta, Controls, Starter } from './wire';

/**
 * What the phone sees of durable agents: the bridge reads wire v1, cuts and cleans it
 * (`fit.ts`), masks secrets, and serves it in the snapshot (`durable`) and as `durable.*` events.
 */
export const DurableAgentState = z.enum(['starting', 'ready', 'unreachable', 'version_mismatch']);
export type DurableAgentState = z.infer<typeof DurableAgentState>;

export const DurableAgent = z.object({
  /** The name in sources.json. */
  name: z.string(),
  /** The name the agent gives itself in its hello; the phone shows "durable" without one. */
  runtime: z.string().nullable(),
  /** Over a socket, or http to 127.0.0.1 or localhost. */
  local: z.boolean(),
  state: DurableAgentState,
  /** The wire version the agent spoke, once known. */
  wire: z.number().int().nullable(),
  /** For `version_mismatch`: the caution box's sentence. */
  caution: z.string().nullable(),
  /** Why it is unreachable, in words (for the agent's home). */
  problem: z.string().nullable(),
  /** What the bridge did not keep of what it sent (conversations, items), in words; null when nothing. */
  kept: z.string().nullable().default(null),
  controls: Controls,
  starters: z.array(Starter),
  /** A crew member's machine; null for this machine's own. */
  machine: z.string().nullable(),
});
export type DurableAgent = z.infer<typeof DurableAgent>;

const flags = z.object({
  /** The reader cut or cleaned the agent's words: "Text shortened", and no "Always allow". */
  shortened: z.boolean(),
});

/** A chat item as served: a link's `href` is set only for an https address. */
export const DurableItem = WireItem.and(flags).and(
  z.object({
    href: z.string().nullable(),
    /** A line the bridge wrote itself ("Timed out before an answer: …"). */
    receipt: z.boolean(),
  }),
);
export type DurableItem = z.infer<typeof DurableItem>;

/** A question of a kind this Collie does not know, as served: its words, never answerable. */
export const UnknownQuestionView = z.object({
  kind: z.literal('unknown'),
  originalKind: z.string(),
  id: WireId,
  version: z.number().int().nonnegative(),
  title: z.string(),
  body: z.string().nullable(),
  toolCall: z.object({ id: WireId, name: z.string() }).nullable(),
  expiresAt: z.number().nullable(),
  at: z.number(),
});
/** A question as served; `answerable` is false for a kind this Collie does not know. */
export const DurableQuestion = z.union([KnownQuestion, UnknownQuestionView]).and(flags).and(z.object({ answerable: z.boolean() }));
export type DurableQuestion = z.infer<typeof DurableQuestion>;

export const DurableConversation = ConversationMeta.extend({
  agent: z.string(),
  /** Open questions, oldest first. */
  questions: z.array(DurableQuestion),
});
export type DurableConversation = z.infer<typeof DurableConversation>;

export const DurableThread = z.object({ agent: z.string(), conversationId: z.string(), items: z.array(DurableItem) });
export type DurableThread = z.infer<typeof DurableThread>;

/** The snapshot's `durable` part. */
export const DurableSnapshot = z.object({
  agents: z.array(DurableAgent),
  conversations: z.array(DurableConversation),
  threads: z.array(DurableThread),
});
export type DurableSnapshot = z.infer<typeof DurableSnapshot>;

const base = { seq: z.number().int().positive(), at: z.number() };
export const DurableAgentUpdated = z.object({ type: z.literal('durable.agent.updated'), ...base, agent: DurableAgent });
export const DurableAgentRemoved = z.object({ type: z.literal('durable.agent.removed'), ...base, name: z.string() });
export const DurableConversationUpdated = z.object({ type: z.literal('durable.conversation.updated'), ...base, conversation: DurableConversation });
/** The conversation closed, or its agent went: it leaves the open list. */
export const DurableConversationRemoved = z.object({ type: z.literal('durable.conversation.removed'), ...base, agent: z.string(), id: z.string() });
export const DurableItemUpdated = z.object({
  type: z.literal('durable.item.updated'),
  ...base,
  agent: z.string(),
  conversationId: z.string(),
  item: DurableItem,
});
export const DURABLE_EVENTS = [DurableAgentUpdated, DurableAgentRemoved, DurableConversationUpdated, DurableConversationRemoved, DurableItemUpdated] as const;

/* ---- the phone's calls ---- */

const tap = { agent: z.string().min(1).max(100), request_id: z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/) };
const inConv = { ...tap, conversationId: z.string().min(1).max(200) };
export const DurableAnswerRequest = z.object({ ...inConv, questionId: z.string().min(1).max(200), version: z.number().int().nonnegative(), answer: WireAnswer }).strict();
export const DurableMessageRequest = z.object({ ...inConv, text: z.string().min(1).max(20_000), steer: z.boolean() }).strict();
export const DurableStopRequest = z.object(inConv).strict();
export const DurableButtonRequest = z.object({ ...inConv, buttonId: z.string().min(1).max(200), turn: z.string().max(200) }).strict();
export const DurableStarterRequest = z.object({ ...tap, starterId: z.string().min(1).max(200) }).strict();
export const DurableReopenRequest = z.object(inConv).strict();
export const DurableCloseRequest = z.object(inConv).strict();
export type DurableAnswerRequest = z.infer<typeof DurableAnswerRequest>;

/**
 * How a tap ended. The agent's outcomes, plus the bridge's own: `unsure` (the call may not
 * have arrived: "Try again" sends the same id), `may_be_applied` (a retry found the question
 * closed or changed), `older_collie` (a crew member cannot take answers).
 */
export const TapOutcome = z.enum([
  'taken',
  'decided',
  'timed_out',
  'already_answered',
  'not_open',
  'changed',
  'refused',
  'moved_on',
  'unsure',
  'may_be_applied',
  'older_collie',
]);
export type TapOutcome = z.infer<typeof TapOutcome>;
export const TapResult = z.object({ outcome: TapOutcome, reason: z.string().nullable(), conversationId: z.string().nullable() });
export type TapResult = z.infer<typeof TapResult>;

/** `GET /api/durable/closed?agent=…&cursor=…`: one page of the closed list, or why not. */
export const ClosedListResult = z.discriminatedUnion('state', [
  z.object({ state: z.literal('ok'), conversations: z.array(ClosedConversation), next: z.string().nullable() }),
  z.object({ state: z.literal('no_list') }),
  z.object({ state: z.literal('no_answer') }),
  z.object({ state: z.literal('version_mismatch'), note: z.string() }),
  z.object({ state: z.literal('failed'), message: z.string() }),
]);
export type ClosedListResult = z.infer<typeof ClosedListResult>;

/** `GET /api/durable/conversation?agent=…&id=…`: one conversation to read, closed ones read-only. */
export const ConversationReadResult = z.object({ conversation: DurableConversation, items: z.array(DurableItem), closed: z.boolean() });
export type ConversationReadResult = z.infer<typeof ConversationReadResult>;
