/**
 * The only code that reads the Agent SDK's messages (sdk.d.ts of @anthropic-ai/claude-agent-sdk
 * 0.3.334): it turns each into roster inputs and the session-level facts Nerve keeps.
 */
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import type { RosterInput } from '../roster/input';

/** What one SDK message means to a session. */
export interface Frame {
  roster: RosterInput[];
  /** The orchestrator's own text (never a sub-agent's). */
  text: string | null;
  /** A turn ended (`result`). */
  turnEnded: boolean;
  /** The orchestrator is producing output, so a turn runs (also an autonomous one). */
  turnActive: boolean;
  /** A `result` that is an error with no turn run: the runtime failed before it started any (a resume of a conversation never written). */
  failedStart: boolean;
  /** The turn's origin kind, when a result carries one (`task-notification` for an autonomous turn). */
  origin: string | null;
  /** The runtime's session id (`system/init`). */
  runtimeSessionId: string | null;
  /** A message's step in the runtime's own queue (`command_lifecycle`: `queued`, `started`, …). */
  command: { uuid: string; state: string } | null;
}

type Block = { type: string; [k: string]: unknown };

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function blocks(content: unknown): Block[] {
  if (!Array.isArray(content)) return [];
  return content.filter((b): b is Block => typeof b === 'object' && b !== null && typeof (b as Block).type === 'string');
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return blocks(content)
    .map((b) => (b.type === 'text' ? (str(b.text) ?? '') : ''))
    .join('\n');
}

/** The task a spawning call's result names: from the tool's structured output, else its text. */
export function namedTask(structured: unknown, text: string): string | null {
  if (structured && typeof structured === 'object') {
    const o = structured as Record<string, unknown>;
    for (const k of ['agentId', 'backgroundTaskId', 'taskId', 'task_id', 'shellId']) {
      const v = str(o[k]);
      if (v) return v;
    }
  }
  const m = /(?:agentId|task_id|task id|with ID):?\s*([A-Za-z0-9_-]+)/i.exec(text);
  return m?.[1] ?? null;
}

export function readFrame(msg: SDKMessage): Frame {
  const f: Frame = { roster: [], text: null, turnEnded: false, failedStart: false, turnActive: false, origin: null, runtimeSessionId: null, command: null };
  switch (msg.type) {
    case 'assistant': {
      const parent = msg.parent_tool_use_id;
      const m = msg.message;
      const usage = m.usage as { input_tokens?: number; output_tokens?: number; cache_read_input_tokens?: number | null; cache_creation_input_tokens?: number | null } | undefined;
      const call = parent
        ? {
            id: m.id,
            model: m.model,
            inputTokens: (usage?.input_tokens ?? 0) + (usage?.cache_read_input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0),
            outputTokens: usage?.output_tokens ?? 0,
          }
        : null;
      if (!parent) f.turnActive = true;
      for (const b of blocks(m.content)) {
        if (b.type === 'tool_use') {
          const input = b.input && typeof b.input === 'object' ? (b.input as Record<string, unknown>) : {};
          f.roster.push({ type: 'tool_call', toolUseId: str(b.id) ?? '', name: str(b.name) ?? '', input, parentToolUseId: parent });
          if (parent) f.roster.push({ type: 'agent_frame', parentToolUseId: parent, kind: 'tool_call', payload: { id: b.id, name: b.name, input }, call });
        } else if (b.type === 'text' || b.type === 'thinking') {
          const text = str(b.text) ?? str(b.thinking) ?? '';
          if (parent) f.roster.push({ type: 'agent_frame', parentToolUseId: parent, kind: b.type, payload: { text }, call });
          else if (b.type === 'text') f.text = (f.text ?? '') + text;
        }
      }
      return f;
    }
    case 'user': {
      const parent = msg.parent_tool_use_id;
      for (const b of blocks(msg.message.content)) {
        if (b.type !== 'tool_result') continue;
        const text = resultText(b.content);
        const toolUseId = str(b.tool_use_id) ?? '';
        const isError = b.is_error === true;
        f.roster.push({ type: 'tool_result', toolUseId, isError, text, namedTaskId: namedTask(msg.tool_use_result, text), parentToolUseId: parent });
        if (parent) f.roster.push({ type: 'agent_frame', parentToolUseId: parent, kind: 'tool_result', payload: { tool_use_id: toolUseId, is_error: isError, text }, call: null });
      }
      return f;
    }
    case 'result':
      f.turnEnded = true;
      f.failedStart = msg.is_error && msg.num_turns === 0;
      f.origin = msg.origin?.kind ?? null;
      return f;
    case 'system':
      return system(msg, f);
    default: {
      // Not in the SDK's typed union: `{type: 'command_lifecycle', command_uuid, state}`.
      const raw = msg as unknown as { type: string; command_uuid?: unknown; state?: unknown };
      const uuid = str(raw.command_uuid);
      const state = str(raw.state);
      if (raw.type === 'command_lifecycle' && uuid && state) f.command = { uuid, state };
      return f;
    }
  }
}

function system(msg: Extract<SDKMessage, { type: 'system' }>, f: Frame): Frame {
  switch (msg.subtype) {
    case 'init':
      f.runtimeSessionId = msg.session_id;
      break;
    case 'task_started':
      f.roster.push({
        type: 'task_started',
        taskId: msg.task_id,
        toolUseId: msg.tool_use_id ?? null,
        taskType: msg.task_type ?? 'other',
        description: msg.description,
        prompt: msg.prompt ?? null,
        background: msg.is_backgrounded ?? true,
        parentTaskId: msg.parent_task_id ?? null,
        ambient: msg.ambient === true || msg.skip_transcript === true,
      });
      break;
    case 'task_updated':
      f.roster.push({ type: 'task_updated', taskId: msg.task_id, status: msg.patch.status ?? null, backgrounded: msg.patch.is_backgrounded ?? null, error: msg.patch.error ?? null });
      break;
    case 'task_progress':
      f.roster.push({ type: 'task_progress', taskId: msg.task_id, totalTokens: msg.usage.total_tokens, lastTool: msg.last_tool_name ?? null, summary: msg.summary ?? null });
      break;
    case 'task_notification':
      if (msg.ambient === true || msg.skip_transcript === true) break;
      f.roster.push({ type: 'task_notification', taskId: msg.task_id, toolUseId: msg.tool_use_id ?? null, status: msg.status, summary: msg.summary, totalTokens: msg.usage?.total_tokens ?? null });
      break;
    case 'background_tasks_changed':
      f.roster.push({ type: 'background_set', tasks: msg.tasks.map((t) => ({ taskId: t.task_id, ambient: t.ambient === true })) });
      break;
    default:
      break;
  }
  return f;
}
