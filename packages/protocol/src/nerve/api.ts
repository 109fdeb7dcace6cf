/**
 * Nerve's REST and WebSocket wire (docs/nerve-api.md): one schema per route body and answer,
 * and the event union of its WebSocket.
 */
import { z } from 'zod';
import { AgentRecord, AgentId, AgentTranscriptEvent } from './roster';

/** Error codes Nerve answers with, mapped to HTTP in {@link nerveHttpStatus}. */
export const NerveErrorCode = z.enum([
  'bad_request',
  'bad_json',
  'not_found',
  'forbidden_origin',
  'forbidden_host',
  'payload_too_large',
  'live_background_agents',
  'not_sender',
  'unauthorized',
  'internal',
]);
export type NerveErrorCode = z.infer<typeof NerveErrorCode>;

export const nerveHttpStatus: Record<NerveErrorCode, number> = {
  bad_request: 400,
  bad_json: 400,
  not_found: 404,
  forbidden_origin: 403,
  forbidden_host: 403,
  payload_too_large: 413,
  live_background_agents: 409,
  not_sender: 403,
  unauthorized: 401,
  internal: 500,
};

export const NerveErrorBody = z.object({
  error: z.object({ code: NerveErrorCode, message: z.string() }),
  /** `live_background_agents`: the agents that keep the session busy. */
  live_agents: z.array(AgentId).optional(),
});
export type NerveErrorBody = z.infer<typeof NerveErrorBody>;

const Text = z.string().min(1, 'text is empty').max(100_000, 'text is longer than 100000 characters');
const Who = z.string().min(1).max(120);

export const CreateSessionBody = z.strictObject({
  title: z.string().max(200).optional(),
  model: z.string().min(1).max(100).optional(),
});
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

export const PatchSessionBody = z.strictObject({ model: z.string().min(1).max(100).optional(), title: z.string().max(200).optional() });
export type PatchSessionBody = z.infer<typeof PatchSessionBody>;

export const QueueOrigin = z.enum(['web', 'api', 'channel', 'internal']);
export type QueueOrigin = z.infer<typeof QueueOrigin>;

export const SendMessageBody = z.strictObject({
  text: Text,
  /** A retry with the same id within 10 minutes runs once. */
  client_msg_id: z.string().min(1).max(200).optional(),
  origin: QueueOrigin.optional(),
  /** A channel's name when origin is `channel`. */
  channel: z.string().min(1).max(60).optional(),
  sender: Who.optional(),
});
export type SendMessageBody = z.infer<typeof SendMessageBody>;

export const SendMessageAnswer = z.object({
  queue_id: z.string(),
  /** `started`: the turn began at once; `queued`: it waits; `duplicate`: this client_msg_id was seen. */
  outcome: z.enum(['started', 'queued', 'duplicate']),
});
export type SendMessageAnswer = z.infer<typeof SendMessageAnswer>;

export const StopScope = z.enum(['turn', 'all', 'force']);
export type StopScope = z.infer<typeof StopScope>;

export const StopBody = z.strictObject({
  scope: StopScope.default('turn'),
  /** Stop all: end shells and monitors too (default true). */
  include_shells: z.boolean().optional(),
  requested_by: Who.optional(),
});
export type StopBody = z.infer<typeof StopBody>;

export const StopOutcome = z.enum(['stopped', 'nothing_running', 'not_stopped', 'needs_confirmation']);
export type StopOutcome = z.infer<typeof StopOutcome>;

export const StopAnswer = z.object({
  outcome: StopOutcome,
  /** The agents that would end (not_stopped, needs_confirmation) or were asked to stop. */
  live_agents: z.array(AgentId),
});
export type StopAnswer = z.infer<typeof StopAnswer>;

export const AgentStopBody = z.strictObject({ requested_by: Who.optional() });
export const AgentStopAnswer = z.object({ stopping: z.array(AgentId) });
export type AgentStopAnswer = z.infer<typeof AgentStopAnswer>;

export const QueuedMessage = z.object({
  queue_id: z.string(),
  /** The first 120 characters, or the fixed label of an internal trigger. */
  preview: z.string(),
  origin: QueueOrigin,
  channel: z.string().nullable(),
  sender: z.string().nullable(),
  queued_at: z.number(),
});
export type QueuedMessage = z.infer<typeof QueuedMessage>;

export const QueueOrderBody = z.strictObject({ order: z.array(z.string().min(1)).max(1000) });
export const CancelAnswer = z.object({ text: z.string() });

/**
 * `<state_dir>/api.json`, written by Nerve at every start (0600): where its API listens and
 * the bearer token every route and the event socket need. The bridge reads it to reach Nerve.
 */
export const NerveApiFile = z.object({
  url: z.string().regex(/^http:\/\/(127\.0\.0\.1|\[::1\]|localhost):\d{1,5}$/, 'url is http://127.0.0.1:<port> (loopback only)'),
  token: z.string().regex(/^nrv_[0-9a-f]{48}$/, 'token is nrv_ and 48 hex digits'),
});
export type NerveApiFile = z.infer<typeof NerveApiFile>;

/** The token of an `Authorization: Bearer <token>` header, or null when it is not one. */
export function nerveBearer(header: string): string | null {
  const m = /^Bearer +(\S+)$/i.exec(header.trim());
  return m ? m[1]! : null;
}

export const SessionInfo = z.object({
  session_id: z.string(),
  title: z.string(),
  model: z.string(),
  is_running: z.boolean(),
  has_background_tasks: z.boolean(),
  background_count: z.number().int(),
  archived: z.boolean(),
  created_at: z.number(),
  /** `agent.subagents.quiet_after_minutes`, read live: the UI flags a running agent silent this long as quiet. */
  quiet_after_minutes: z.number().min(0),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

/** Events on `/api/events` (WebSocket), `noun.verb` named, with a per-gateway sequence. */
export const NerveEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session.running'), session_id: z.string(), is_running: z.boolean() }),
  z.object({ type: z.literal('session.background'), session_id: z.string(), has_background_tasks: z.boolean(), background_count: z.number() }),
  z.object({ type: z.literal('agent.updated'), session_id: z.string(), agent: AgentRecord }),
  z.object({ type: z.literal('queue.update'), session_id: z.string(), queue: z.array(QueuedMessage) }),
  z.object({ type: z.literal('session.text'), session_id: z.string(), text: z.string() }),
  /** One transcript line of an agent as it lands (capped like the stored one); only to sockets subscribed to that agent. */
  z.object({ type: z.literal('agent.transcript'), session_id: z.string(), line: AgentTranscriptEvent }),
  z.object({
    type: z.literal('session.stop_event'),
    session_id: z.string(),
    name: z.enum(['stop_requested', 'agent_stop_requested', 'agents_stop_all_requested', 'force_stop_requested']),
    requested_by: z.string(),
    details: z.record(z.string(), z.unknown()),
  }),
]);
export type NerveEvent = z.infer<typeof NerveEvent>;
export const NerveEventFrame = z.object({ seq: z.number().int(), event: NerveEvent });
export type NerveEventFrame = z.infer<typeof NerveEventFrame>;

/** A socket follows at most this many agents' transcript lines at once (spec: a tab subscribes to at most 8). */
export const MAX_TRANSCRIPT_SUBSCRIPTIONS = 8;
/** What a client may send on `/api/events`: the agents whose transcript lines it wants (replaces the last). */
export const NerveSocketCommand = z.strictObject({
  type: z.literal('subscribe_transcripts'),
  agent_ids: z.array(AgentId).max(MAX_TRANSCRIPT_SUBSCRIPTIONS, `at most ${MAX_TRANSCRIPT_SUBSCRIPTIONS} agents' transcripts at once`),
});
export type NerveSocketCommand = z.infer<typeof NerveSocketCommand>;
/** Nerve's answer on the socket to a command: the subscription as it now stands, or what was wrong. */
export const NerveSocketAnswer = z.union([
  z.object({ subscribed: z.array(AgentId) }),
  z.object({ error: z.object({ code: z.literal('bad_request'), message: z.string() }) }),
]);
export type NerveSocketAnswer = z.infer<typeof NerveSocketAnswer>;

/** `GET …/agents`, `GET …/queue` (and `PUT …/queue/order`), `GET …/agents/{agent_id}/transcript`. */
export const AgentListAnswer = z.object({ agents: z.array(AgentRecord) });
export const QueueAnswer = z.object({ queue: z.array(QueuedMessage) });
export const TranscriptAnswer = z.object({ events: z.array(AgentTranscriptEvent) });
