/**
 * What the roster hears, in our own words. The SDK adapter (`../runtime/frames.ts`) is the only
 * code that turns the Agent SDK's messages into these.
 */

/** A tool call in the orchestrator's (or an agent's) message. */
export interface ToolCallIn {
  type: 'tool_call';
  toolUseId: string;
  name: string;
  input: Record<string, unknown>;
  /** The agent call this one was made inside, or null for the orchestrator. */
  parentToolUseId: string | null;
}

/** The result of a tool call; a spawning call's result names the task it started. */
export interface ToolResultIn {
  type: 'tool_result';
  toolUseId: string;
  isError: boolean;
  text: string;
  /** A task id the result names (agentId, backgroundTaskId, shellId…), when it names one. */
  namedTaskId: string | null;
  parentToolUseId: string | null;
}

export interface TaskStartedIn {
  type: 'task_started';
  taskId: string;
  toolUseId: string | null;
  taskType: string;
  description: string;
  prompt: string | null;
  background: boolean;
  parentTaskId: string | null;
  ambient: boolean;
}

export interface TaskUpdatedIn {
  type: 'task_updated';
  taskId: string;
  status: string | null;
  backgrounded: boolean | null;
  error: string | null;
}

export interface TaskProgressIn {
  type: 'task_progress';
  taskId: string;
  totalTokens: number | null;
  lastTool: string | null;
  summary: string | null;
}

export interface TaskEndedIn {
  type: 'task_notification';
  taskId: string;
  toolUseId: string | null;
  status: 'completed' | 'failed' | 'stopped';
  summary: string;
  totalTokens: number | null;
}

/** The runtime's whole live background set (replace semantics). */
export interface BackgroundSetIn {
  type: 'background_set';
  tasks: Array<{ taskId: string; ambient: boolean }>;
}

/** One frame of a sub-agent's own conversation (text, thinking, a model call's usage). */
export interface AgentFrameIn {
  type: 'agent_frame';
  parentToolUseId: string;
  kind: 'text' | 'thinking' | 'tool_call' | 'tool_result';
  payload: Record<string, unknown>;
  /** The model call this frame belongs to, with its usage so far (the last frame counts). */
  call: { id: string; model: string; inputTokens: number; outputTokens: number } | null;
}

export type RosterInput = ToolCallIn | ToolResultIn | TaskStartedIn | TaskUpdatedIn | TaskProgressIn | TaskEndedIn | BackgroundSetIn | AgentFrameIn;
