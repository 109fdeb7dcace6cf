import type { RecordedRequest } from './scripted-server';

/**
 * Reading a Messages API request the way the scripted API needs it: whose request it is
 * (the main conversation, a sub-agent, or a side call) and what the user said in it.
 * Pure functions, no I/O.
 */

/** Who sent a request. */
export type RequestKind = 'main' | 'subagent' | 'side' | 'count_tokens' | 'probe';

/** A tool result the CLI sent back in the last user message. */
export interface ToolResult {
  toolUseId: string;
  isError: boolean;
  /** The result's text (text blocks joined). */
  text: string;
}

/** The parts of a request body the scripted API reads. Everything else stays in `body`. */
export interface DecodedRequest {
  kind: RequestKind;
  model: string | undefined;
  stream: boolean;
  /** Human text of the last user message ({@link humanText}). */
  prompt: string;
  /** Human text of every user message in order, empty ones left out. */
  userMessages: string[];
  /** Tool results in the last user message. */
  toolResults: ToolResult[];
  /** Names of the tools the request offers. */
  toolNames: string[];
  /** Whether the request asks for the server-side tool-use check of auto mode. */
  wantsSafeguards: boolean;
  /** The JSON schema of a structured-output side call (`output_config.format`). */
  outputSchema: unknown;
}

/**
 * Forked side calls reuse the main conversation's system prompt and tools and differ only by
 * the user message they append. Seen in Claude Code 2.1.334 (December 2026): prompt
 * suggestions, the away recap, background-agent progress labels, and /compact.
 */
const FORK_MARKERS = [
  '[SUGGESTION MODE:',
  'The user stepped away and is coming back.',
  'Describe your most recent action',
  "Describe the agent's most recent action",
  'CRITICAL: Respond with TEXT ONLY',
];

/** Marks sub-agent requests in the first system block (`x-anthropic-billing-header: …; cc_is_subagent=true;`). */
const SUBAGENT_MARK = 'cc_is_subagent=true';

type Json = Record<string, unknown>;

/**
 * Decodes a parsed `POST /v1/messages` body.
 *
 * How 2.1.334 tells its requests apart (logged against this API):
 * - main turn: the full tool list (Agent, Bash, …), the `You are Claude Code, …` system prompt;
 * - sub-agent turn: a tool list too, but `cc_is_subagent=true` in the billing system block;
 * - side call (session names, titles, labels): no tools, often `output_config.format`
 *   with a JSON schema, a small model; or a fork of the main request ({@link FORK_MARKERS}).
 */
export function decodeRequest(body: unknown): DecodedRequest {
  const b: Json = isObject(body) ? body : {};
  const messages = Array.isArray(b.messages) ? b.messages.filter(isObject) : [];
  const users = messages.filter((m) => m.role === 'user');
  const last = users.at(-1);
  const lastBlocks = last ? blocksOf(last.content) : [];
  const prompt = humanText(lastBlocks);
  const toolNames = Array.isArray(b.tools) ? b.tools.filter(isObject).map((t) => String(t.name ?? '')) : [];
  const outputConfig = isObject(b.output_config) ? b.output_config : {};
  const format = isObject(outputConfig.format) ? outputConfig.format : undefined;
  const safeguards = Array.isArray(b.safeguards) ? b.safeguards.filter(isObject) : [];

  let kind: RequestKind = 'main';
  const rawLast = lastBlocks.filter((x) => x.type === 'text').map((x) => String(x.text ?? '')).join('\n');
  if (format !== undefined || toolNames.length === 0 || users.length === 0) kind = 'side';
  else if (FORK_MARKERS.some((m) => rawLast.includes(m))) kind = 'side';
  else if (systemText(b.system).includes(SUBAGENT_MARK)) kind = 'subagent';

  return {
    kind,
    model: typeof b.model === 'string' ? b.model : undefined,
    stream: b.stream === true,
    prompt,
    userMessages: users.map((m) => humanText(blocksOf(m.content))).filter((t) => t !== ''),
    toolResults: lastBlocks.filter((x) => x.type === 'tool_result').map(toolResult),
    toolNames,
    wantsSafeguards: safeguards.some((s) => s.type === 'dangerous_tool_use'),
    outputSchema: format?.schema,
  };
}

/**
 * Records the CLI adds to a user message that the person did not type as a prompt: system
 * reminders, and what a local slash command left behind (`/rename` sends
 * `<command-name>…</command-name>` and `<local-command-stdout>…` with the next prompt).
 */
const ADDED = /<(system-reminder|command-name|command-message|command-args|local-command-stdout|local-command-stderr)>[\s\S]*?<\/\1>/g;

/** Text a person wrote: text blocks without the records the CLI adds ({@link ADDED}). */
export function humanText(blocks: Json[]): string {
  return blocks
    .filter((x) => x.type === 'text')
    .map((x) => String(x.text ?? '').replace(ADDED, '').trim())
    .filter((t) => t !== '')
    .join('\n');
}

function toolResult(block: Json): ToolResult {
  const c = block.content;
  const text = typeof c === 'string' ? c : Array.isArray(c) ? humanText(c.filter(isObject)) : '';
  return { toolUseId: String(block.tool_use_id ?? ''), isError: block.is_error === true, text };
}

function blocksOf(content: unknown): Json[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  return Array.isArray(system) ? system.filter(isObject).map((s) => String(s.text ?? '')).join('\n') : '';
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One request the API received, decoded. */
export interface ApiRequest extends DecodedRequest, RecordedRequest {
  /** The CLI's `x-claude-code-session-id` header. */
  sessionId: string | undefined;
}
