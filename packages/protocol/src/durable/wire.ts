import { z } from 'zod';
import { WireId, WireItem } from './items';
import { BUTTON_ICONS } from './limits';
import { QuestionEnd, WireAnswer, WireQuestion } from './questions';

/**
 * Durable agents wire v1: what a durable agent serves (over a unix socket or HTTP) and the
 * bridge reads. `docs/wire-v1.md` is this file in prose, with examples. Every frame is JSON;
 * the event stream is one JSON object per line.
 */

/** What the agent can do; the phone draws a control only for what is declared here. */
export const Controls = z.object({
  steer: z.boolean().default(false),
  stop: z.boolean().default(false),
  reopen: z.boolean().default(false),
  close: z.boolean().default(false),
  /** The agent keeps a list of closed conversations and answers `GET /closed`. */
  history: z.boolean().default(false),
  /** The agent takes a user line (`POST /message`) into an open conversation. */
  message: z.boolean().default(false),
});
export type Controls = z.infer<typeof Controls>;

/** `GET /hello`. `wire` is read first and alone: another version is refused before anything else. */
export const AgentHello = z.object({
  wire: z.number().int(),
  /** The name the agent gives itself; the phone's line 2 shows it, else "durable". */
  runtime: z.string().nullable().default(null),
  name: z.string().nullable().default(null),
  /** Names this run of the agent: a stream cursor of another session means nothing. */
  session: z.string().min(1).max(100),
  controls: Controls.default(Controls.parse({})),
});
export type AgentHello = z.infer<typeof AgentHello>;
export const WireVersionOnly = z.object({ wire: z.number().int() });

export const Step = z.object({ label: z.string(), state: z.enum(['pending', 'running', 'done']) });
export const Progress = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('steps'), steps: z.array(Step).max(1000) }),
  z.object({ kind: z.literal('percent'), percent: z.number().finite(), label: z.string().nullable().default(null) }),
]);
export type Progress = z.infer<typeof Progress>;

export const Button = z.object({
  id: WireId,
  label: z.string(),
  /** One of `BUTTON_ICONS`; any other name draws no icon. */
  icon: z.string().max(40).nullable().default(null),
  busy: z.boolean().default(false),
  disabled: z.boolean().default(false),
});
export type Button = z.infer<typeof Button>;
export const ICONS: readonly string[] = BUTTON_ICONS;

export const Starter = z.object({ id: WireId, label: z.string(), line: z.string().nullable().default(null) });
export type Starter = z.infer<typeof Starter>;

/** A conversation's header, belt and state, without its items and questions. */
export const ConversationMeta = z.object({
  id: WireId,
  title: z.string().nullable().default(null),
  subtitle: z.string().nullable().default(null),
  workspace: z.string().nullable().default(null),
  /** A turn runs. */
  working: z.boolean().default(false),
  /** The newest turn's id: a belt tap names it, and a tap on an older turn does not run. */
  turn: z.string().max(200).default(''),
  progress: Progress.nullable().default(null),
  buttons: z.array(Button).max(1000).default([]),
  openedAt: z.number().finite(),
  updatedAt: z.number().finite(),
});
export type ConversationMeta = z.infer<typeof ConversationMeta>;

export const WireConversation = ConversationMeta.extend({
  items: z.array(WireItem).max(100_000).default([]),
  questions: z.array(WireQuestion).max(1000).default([]),
});
export type WireConversation = z.infer<typeof WireConversation>;

const cursor = { cursor: z.number().int().nonnegative() };
const inConversation = { ...cursor, conversationId: WireId };

/** One line of `GET /events`. Every line but `ping` carries the agent's cursor. */
export const AgentEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sync'), ...cursor, conversations: z.array(WireConversation).max(10_000), starters: z.array(Starter).max(1000) }),
  z.object({ type: z.literal('conversation.opened'), ...cursor, conversation: WireConversation }),
  z.object({ type: z.literal('conversation.updated'), ...cursor, conversation: ConversationMeta }),
  z.object({ type: z.literal('conversation.closed'), ...cursor, id: WireId }),
  z.object({ type: z.literal('item'), ...inConversation, item: WireItem }),
  z.object({ type: z.literal('item.append'), ...inConversation, itemId: WireId, text: z.string(), final: z.boolean().default(false) }),
  z.object({ type: z.literal('question.asked'), ...inConversation, question: WireQuestion }),
  z.object({ type: z.literal('question.ended'), ...inConversation, questionId: WireId, reason: QuestionEnd }),
  z.object({ type: z.literal('starters'), ...cursor, starters: z.array(Starter).max(1000) }),
  z.object({ type: z.literal('ping') }),
]);
export type AgentEvent = z.infer<typeof AgentEvent>;
export type AgentEventInput = z.input<typeof AgentEvent>;

/** What the agent answers to a request from the bridge. */
export const WireOutcome = z.enum(['taken', 'decided', 'timed_out', 'already_answered', 'not_open', 'changed', 'refused', 'moved_on']);
export type WireOutcome = z.infer<typeof WireOutcome>;
export const WireResult = z.object({
  outcome: WireOutcome,
  /** Why, in the agent's words, for `refused`. */
  reason: z.string().nullable().default(null),
  /** The conversation a starter or a reopen opened. */
  conversationId: WireId.nullable().default(null),
});
export type WireResult = z.infer<typeof WireResult>;

const req = { requestId: z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/) };
/** Bridge → agent. Each carries the request id of the phone's tap: the agent acts on an id once. */
export const AnswerCall = z.object({ ...req, conversationId: WireId, questionId: WireId, version: z.number().int().nonnegative(), answer: WireAnswer });
export const MessageCall = z.object({ ...req, conversationId: WireId, text: z.string().min(1).max(20_000), steer: z.boolean() });
export const StopCall = z.object({ ...req, conversationId: WireId });
export const ButtonCall = z.object({ ...req, conversationId: WireId, buttonId: WireId, turn: z.string().max(200) });
export const StarterCall = z.object({ ...req, starterId: WireId });
export const ReopenCall = z.object({ ...req, conversationId: WireId });
export const CloseCall = z.object({ ...req, conversationId: WireId });
export type AnswerCall = z.infer<typeof AnswerCall>;
export type MessageCall = z.infer<typeof MessageCall>;
export type ButtonCall = z.infer<typeof ButtonCall>;

/** The calls, by path. */
export const CALLS = {
  '/answer': AnswerCall,
  '/message': MessageCall,
  '/stop': StopCall,
  '/button': ButtonCall,
  '/starter': StarterCall,
  '/reopen': ReopenCall,
  '/close': CloseCall,
} as const;
export type CallPath = keyof typeof CALLS;

export const ClosedConversation = z.object({
  id: WireId,
  title: z.string().nullable().default(null),
  subtitle: z.string().nullable().default(null),
  updatedAt: z.number().finite(),
});
export type ClosedConversation = z.infer<typeof ClosedConversation>;
/** `GET /closed?cursor=…`: at most 100 a page, newest first, or "keeps no list". */
export const ClosedPage = z.union([
  z.object({ keepsList: z.literal(true), conversations: z.array(ClosedConversation).max(1000), next: z.string().max(200).nullable() }),
  z.object({ keepsList: z.literal(false) }),
]);
export type ClosedPage = z.infer<typeof ClosedPage>;
/** `GET /conversation?id=…`: one conversation to read, open or closed. */
export const ConversationRead = z.object({ conversation: WireConversation, closed: z.boolean() });

export const WireErrorCode = z.enum(['wire_version', 'bad_request', 'unauthorized', 'not_found', 'internal']);
export const WireError = z.object({ error: z.object({ code: WireErrorCode, message: z.string(), wire: z.number().int().optional() }) });
export type WireError = z.infer<typeof WireError>;
