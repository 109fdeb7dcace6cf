/**
 * The Messages API answer on the wire: one scripted {@link Turn} written as SSE events
 * (`"stream": true`) or as one JSON message. Shapes per the Messages API streaming docs:
 * `message_start` (a message with empty content), per block `content_block_start`,
 * `content_block_delta` (`text_delta` / `input_json_delta`), `content_block_stop`, then
 * `message_delta` (stop_reason, usage) and `message_stop`; `ping` may come at any time.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { pause, slices, wordPieces } from './stream-pace';

/** Text the assistant says. */
export interface TextBlock {
  type: 'text';
  text: string;
}

/** A tool call. `id` defaults to a fresh `toolu_…`. */
export interface ToolUseBlock {
  type: 'tool_use';
  name: string;
  input: Record<string, unknown>;
  id?: string;
}

/** One block of a scripted answer. */
export type ScriptBlock = TextBlock | ToolUseBlock;

/** Why the assistant stopped. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';

/** What the scripted API answers to one request. */
export interface Turn {
  blocks: ScriptBlock[];
  /** Default: `tool_use` when a block is a tool call, else `end_turn`. */
  stopReason?: StopReason;
  /** Spread the answer over this long (pings keep the stream alive). Default: at once. */
  durationMs?: number;
  /** Auto mode only: the server-side check flags these tool calls as risky. */
  flagged?: boolean;
  /** The usage the answer reports (a test checks the figures the agent records); default: a rough size. */
  usage?: TurnUsage;
  /** Answer with this API error instead (a 429 `rate_limit_error` with the usage limit's headers). */
  error?: TurnError;
}

/** An error answer: its status, the Messages API error type and message, and response headers. */
export interface TurnError {
  status: number;
  type: string;
  message: string;
  headers?: Record<string, string>;
}

/** Token figures of one answer, as the Messages API reports them. */
export interface TurnUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** How the answer is framed for one request. */
export interface WireContext {
  model: string;
  /** The request asked for auto mode's server-side tool-use check. */
  wantsSafeguards: boolean;
  /** Rough size of the prompt, reported as input tokens. */
  inputTokens: number;
  /** Aborted when the client hangs up: the stream stops writing. */
  signal: AbortSignal;
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** Writes `turn` as an SSE stream. Resolves when the stream ends or the client has gone. */
export async function writeStream(res: ServerResponse, turn: Turn, ctx: WireContext): Promise<void> {
  const blocks = materialize(turn);
  const send = (type: string, data: Record<string, unknown>) => {
    if (!ctx.signal.aborted) res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': newId('req_') });
  const message = envelope(blocks, turn, ctx);
  send('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } } });

  const steps: Array<() => void> = [];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      steps.push(() => send('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const piece of block.text === '' ? [''] : wordPieces(block.text)) {
        steps.push(() => send('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
      }
    } else {
      steps.push(() => send('content_block_start', { index, content_block: { ...block, input: {} } }));
      for (const piece of slices(JSON.stringify(block.input), 40)) {
        steps.push(() => send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }));
      }
    }
    steps.push(() => send('content_block_stop', { index }));
  });

  const gap = (turn.durationMs ?? 0) / Math.max(1, steps.length);
  for (const step of steps) {
    if (gap > 0) await pause(gap, ctx.signal, () => send('ping', {}), 1_000);
    if (ctx.signal.aborted) return;
    step();
  }
  send('message_delta', {
    delta: { stop_reason: message.stop_reason, stop_sequence: null, ...safeguards(blocks, turn, ctx) },
    usage: { output_tokens: message.usage.output_tokens },
  });
  send('message_stop', {});
  res.end();
}

/** Writes `turn` as one JSON message (`"stream": false`), after its duration. */
export async function writeJson(res: ServerResponse, turn: Turn, ctx: WireContext): Promise<void> {
  const blocks = materialize(turn);
  if (turn.durationMs) await pause(turn.durationMs, ctx.signal, () => undefined, 1_000);
  if (ctx.signal.aborted) return;
  const body = { ...envelope(blocks, turn, ctx), ...safeguards(blocks, turn, ctx) };
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': newId('req_') });
  res.end(JSON.stringify(body));
}

/** An API error body, as the Messages API sends one. */
export function errorBody(type: string, message: string): string {
  return JSON.stringify({ type: 'error', error: { type, message } });
}

function materialize(turn: Turn): Block[] {
  return turn.blocks.map((b) => (b.type === 'text' ? b : { type: 'tool_use', id: b.id ?? newId('toolu_'), name: b.name, input: b.input }));
}

function envelope(blocks: Block[], turn: Turn, ctx: WireContext) {
  const stop = turn.stopReason ?? (blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  const outputTokens = Math.max(1, Math.ceil(JSON.stringify(blocks).length / 4));
  return {
    id: newId('msg_'),
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content: blocks,
    stop_reason: stop,
    stop_sequence: null,
    usage: turn.usage ?? { input_tokens: ctx.inputTokens, output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

/**
 * Auto mode (2.1.334) sends `safeguards: [{type: "dangerous_tool_use", …}]` and waits for the
 * server's verdict on each tool call in `message_delta.delta.safeguard_results`; without one
 * it stops and says the check "isn't getting through". Offline we always give a verdict.
 */
function safeguards(blocks: Block[], turn: Turn, ctx: WireContext): Record<string, unknown> {
  if (!ctx.wantsSafeguards) return {};
  const verdict = { type: 'evaluated', outcome: turn.flagged ? 'flagged' : 'not_flagged', explanation: 'scripted verdict' };
  const toolUses = Object.fromEntries(blocks.flatMap((b) => (b.type === 'tool_use' ? [[b.id, verdict]] : [])));
  return { safeguard_results: [{ type: 'dangerous_tool_use', status: { type: 'available', tool_uses: toolUses } }] };
}


function newId(prefix: string): string {
  return prefix + randomBytes(12).toString('base64url');
}
