/**
 * Nerve's roster: one record per piece of background work a Claude session starts (spec
 * "Sub-agents and background tasks", Records). Shared by Nerve's API, its WebSocket and the
 * web app.
 */
import { z } from 'zod';

/** `ag_` + 12 hex, given the moment the spawning tool call appears. */
export const AgentId = z.string().regex(/^ag_[0-9a-f]{12}$/, 'an agent id is ag_ followed by 12 hex digits');
export type AgentId = z.infer<typeof AgentId>;

export const AgentKind = z.enum(['agent', 'workflow', 'shell', 'monitor', 'teammate', 'remote_agent', 'mcp_task', 'other']);
export type AgentKind = z.infer<typeof AgentKind>;

export const AgentStatus = z.enum(['starting', 'running', 'stopping', 'completed', 'failed', 'stopped', 'interrupted', 'lost']);
export type AgentStatus = z.infer<typeof AgentStatus>;

/** Statuses in which an agent counts as live ("agents are live"). */
export const LIVE_STATUSES: readonly AgentStatus[] = ['starting', 'running', 'stopping'];

/** Why a `stopped` agent stopped. */
export const StopReason = z.enum(['user', 'stop_all', 'turn_stop', 'orchestrator', 'unknown_stop']);
export type StopReason = z.infer<typeof StopReason>;

/** Why an `interrupted` agent's runtime went away. */
export const InterruptReason = z.enum(['gateway_restart', 'process_ended', 'force_stop', 'model_switch', 'archived']);
export type InterruptReason = z.infer<typeof InterruptReason>;

/** Why an agent is `lost`. */
export const LostReason = z.enum(['vanished', 'never_started']);
export type LostReason = z.infer<typeof LostReason>;

export const EndReason = z.union([StopReason, InterruptReason, LostReason]);
export type EndReason = z.infer<typeof EndReason>;

export const Attention = z.enum(['needs_input', 'failed', 'interrupted', 'lost', 'stop_unconfirmed']);
export type Attention = z.infer<typeof Attention>;

export const AgentRecord = z.object({
  agent_id: AgentId,
  session_id: z.string(),
  kind: AgentKind,
  status: AgentStatus,
  /** Set with stopped, interrupted and lost. */
  reason: EndReason.nullable(),
  /** The spawning tool call, when one claimed the task. */
  tool_use_id: z.string().nullable(),
  /** The runtime's task id, bound when the runtime reports it. */
  task_id: z.string().nullable(),
  parent_agent_id: AgentId.nullable(),
  name: z.string(),
  prompt: z.string(),
  background: z.boolean(),
  /** 1, plus one per SendMessage resume of the same task. */
  runs: z.number().int().min(1),
  activity: z.string().nullable(),
  summary: z.string().nullable(),
  tokens: z.number().int().min(0),
  /** Estimated USD, shown as ~$. */
  cost_usd: z.number().min(0),
  created_at: z.number(),
  started_at: z.number().nullable(),
  ended_at: z.number().nullable(),
  last_activity_at: z.number(),
  stop_requested_at: z.number().nullable(),
  attention: z.array(Attention),
});
export type AgentRecord = z.infer<typeof AgentRecord>;

/** One line of an agent's transcript (`session_agent_events`). */
export const AgentTranscriptEvent = z.object({
  agent_id: AgentId,
  seq: z.number().int().min(0),
  kind: z.enum(['text', 'thinking', 'tool_call', 'tool_result', 'progress', 'status', 'usage']),
  payload: z.record(z.string(), z.unknown()),
  at: z.number(),
});
export type AgentTranscriptEvent = z.infer<typeof AgentTranscriptEvent>;
