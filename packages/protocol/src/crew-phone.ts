/**
 * The lead's phone acting on a member beyond send, keys and answer (docs/crew.md, "On the
 * lead's phone"): box actions, cancels, the Chat's pages, durable agents' taps and reads, the
 * member's version, and following a pane's screen or Chat. Portable: no `node:*`.
 *
 * Down (lead → member): `call` (one answer, `result`) and `watch` / `unwatch` (a feed of
 * `feed` frames until unwatched or `feed.end`). Up (member → lead): `result`, `feed`, `feed.end`.
 * A member older than these frames ignores them; the lead's wait runs out.
 */
import { z } from 'zod';
import { CALLS, type CallPath } from './durable/wire';
import { PaneScreen } from './events';
import { PaneChatMessage } from './pane-chat';
import { BoxRequest, RequestId } from './send';
import { SessionAgent, SessionResumeBody, SessionsQuery } from './sessions';

/** A call's or a watch's id on one stream: the lead makes it. */
export const CrewCallId = z.string().regex(/^[A-Za-z0-9_-]{8,40}$/, 'a crew call id is 8 to 40 letters, digits, _ or -');

const pane = z.string().min(1).max(200);
const agent = z.string().min(1).max(100);
const callPaths = Object.keys(CALLS) as [CallPath, ...CallPath[]];

/** What the lead asks of a member, each with the phone's own body (request ids included). */
export const CrewCallBody = z.discriminatedUnion('op', [
  z.object({ op: z.literal('box'), pane, body: BoxRequest }).strict(),
  z.object({ op: z.literal('cancel'), pane, requestId: RequestId }).strict(),
  z.object({ op: z.literal('chat.page'), pane, before: z.number().int().nonnegative().nullable(), limit: z.number().int().min(1).max(500) }).strict(),
  // The tap's body is checked by the member against the phone's own schema for `path`.
  z.object({ op: z.literal('durable.tap'), agent, path: z.enum(callPaths), body: z.record(z.string(), z.unknown()) }).strict(),
  z.object({ op: z.literal('durable.closed'), agent, cursor: z.string().max(200).nullable() }).strict(),
  z.object({ op: z.literal('durable.read'), agent, id: z.string().min(1).max(200) }).strict(),
  z.object({ op: z.literal('version') }).strict(),
  // The Sessions page on the lead: the member's own sessions, read and resumed there (its own routes' rules).
  z.object({ op: z.literal('sessions.list'), query: SessionsQuery.omit({ machine: true }) }).strict(),
  z.object({ op: z.literal('sessions.read'), agent: SessionAgent, id: z.string().min(1).max(200), before: z.number().int().nonnegative().nullable(), limit: z.number().int().min(1).max(500) }).strict(),
  z.object({ op: z.literal('sessions.resume'), agent: SessionAgent, id: z.string().min(1).max(200), body: SessionResumeBody }).strict(),
]);
export type CrewCallBody = z.infer<typeof CrewCallBody>;

export const CrewCall = z.object({ type: z.literal('call'), id: CrewCallId, call: CrewCallBody }).strict();
export type CrewCall = z.infer<typeof CrewCall>;

/** Follow a member pane's screen (`pane.screen` frames) or Chat (`pane.chat` messages). */
export const CrewWatch = z.object({ type: z.literal('watch'), id: CrewCallId, kind: z.enum(['screen', 'chat']), pane }).strict();
export type CrewWatch = z.infer<typeof CrewWatch>;
export const CrewUnwatch = z.object({ type: z.literal('unwatch'), id: CrewCallId }).strict();
export type CrewUnwatch = z.infer<typeof CrewUnwatch>;

/** The error a call answers with: the phone API's code and sentence. */
export const CrewCallError = z.object({ code: z.string().min(1).max(40), message: z.string().max(500) }).strict();

/** A call's answer: `value` is checked by the lead against what that call returns. */
export const CrewResult = z.object({ type: z.literal('result'), id: CrewCallId, value: z.unknown(), error: CrewCallError.nullable() }).strict();
export type CrewResult = z.infer<typeof CrewResult>;
export const CrewFeed = z.object({ type: z.literal('feed'), id: CrewCallId, frame: z.union([PaneScreen, PaneChatMessage]) }).strict();
export type CrewFeed = z.infer<typeof CrewFeed>;
/** The member cannot follow (no such pane): the lead tells the phone `not_found`. */
export const CrewFeedEnd = z.object({ type: z.literal('feed.end'), id: CrewCallId, reason: z.string().max(200) }).strict();
export type CrewFeedEnd = z.infer<typeof CrewFeedEnd>;

/** A durable agent of a member on the lead: `@<member>/<its name on the member>`. */
export const leadAgentName = (member: string, name: string) => `@${member}/${name}`;
/** The member and its own agent name, for a lead-side name; null for a local agent. */
export function splitAgentName(name: string): { member: string; name: string } | null {
  const m = /^@([a-z0-9][a-z0-9-]{0,31})\/(.+)$/.exec(name);
  return m ? { member: m[1]!, name: m[2]! } : null;
}

/** `<state>/crew/ask.sock`: the CLI asks the running lead to ask its members now. */
export const CrewAskCommand = z.object({ op: z.literal('versions') }).strict();
export type CrewAskCommand = z.infer<typeof CrewAskCommand>;
/** Each member: the version it answered now, or why not (not connected, no answer). */
export const CrewAskReply = z.union([
  z.object({ type: z.literal('versions'), members: z.array(z.object({ name: z.string(), version: z.string().nullable(), reachable: z.boolean(), problem: z.string().nullable() }).strict()) }).strict(),
  z.object({ type: z.literal('error'), error: z.object({ code: z.string(), message: z.string() }).strict() }).strict(),
]);
export type CrewAskReply = z.infer<typeof CrewAskReply>;
