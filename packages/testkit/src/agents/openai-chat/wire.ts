/**
 * The OpenAI chat-completions answer on the wire: one scripted {@link ChatTurn} written as SSE
 * (`"stream": true`) or as one JSON completion. Shapes as the OpenAI-compatible clients of
 * OpenCode (`@ai-sdk/openai-compatible`) and pi (`openai-completions`) parse them: chunks
 * `{choices:[{index:0,delta:{…}}]}`, the last with `finish_reason` and `usage`, then
 * `data: [DONE]`. A tool call comes as a first delta with its id and name and empty
 * arguments, then deltas that carry the arguments' JSON in pieces.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { pause, slices, wordPieces } from '../../stream-pace';

/** A call of one of the agent's tools; `arguments` is sent as JSON. */
export interface ChatToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** Default: a fresh `call_…`. */
  id?: string;
}

/** What the scripted API answers to one request. */
export interface ChatTurn {
  /** Text the assistant says (before any tool call). */
  text?: string;
  toolCalls?: ChatToolCall[];
  /** Spread the answer over this long (SSE comments keep the stream alive). Default: at once. */
  durationMs?: number;
  /** The usage the answer reports (a test checks the figures the agent records); default: a rough size. */
  usage?: { prompt_tokens: number; completion_tokens: number };
}

/** How the answer is framed for one request. */
export interface ChatWireContext {
  model: string;
  /** Rough size of the prompt, reported as prompt tokens. */
  promptTokens: number;
  /** Aborted when the client hangs up: the stream stops writing. */
  signal: AbortSignal;
}

/** Writes `turn` as an SSE stream. Resolves when the stream ends or the client has gone. */
export async function writeChatStream(res: ServerResponse, turn: ChatTurn, ctx: ChatWireContext): Promise<void> {
  const id = newId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const send = (data: unknown) => {
    if (!ctx.signal.aborted) res.write(`data: ${JSON.stringify(data)}\n\n`);
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
    send({ id, object: 'chat.completion.chunk', created, model: ctx.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });

  const steps: Array<() => void> = [() => chunk({ role: 'assistant', content: '' })];
  for (const piece of wordPieces(turn.text ?? '')) steps.push(() => chunk({ content: piece }));
  (turn.toolCalls ?? []).forEach((call, index) => {
    const callId = call.id ?? newId('call_');
    steps.push(() => chunk({ tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const part of slices(JSON.stringify(call.arguments), 40)) {
      steps.push(() => chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
    }
  });
  const gap = (turn.durationMs ?? 0) / Math.max(1, steps.length);
  for (const step of steps) {
    if (gap > 0) await pause(gap, ctx.signal, () => res.write(': keep-alive\n\n'), 500);
    if (ctx.signal.aborted) return;
    step();
  }
  const finish = (turn.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop';
  chunk({}, finish, { usage: usage(turn, ctx) });
  if (!ctx.signal.aborted) res.end('data: [DONE]\n\n');
}

/** Writes `turn` as one JSON completion (`"stream": false`), after its duration. */
export async function writeChatJson(res: ServerResponse, turn: ChatTurn, ctx: ChatWireContext): Promise<void> {
  if (turn.durationMs) await pause(turn.durationMs, ctx.signal, () => undefined, 500);
  if (ctx.signal.aborted) return;
  const calls = (turn.toolCalls ?? []).map((c) => ({ id: c.id ?? newId('call_'), type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
  const message = { role: 'assistant', content: turn.text ?? '', ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  const body = {
    id: newId('chatcmpl-'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: ctx.model,
    choices: [{ index: 0, message, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: usage(turn, ctx),
  };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** An API error body, as OpenAI sends one. */
export function chatErrorBody(type: string, message: string): string {
  return JSON.stringify({ error: { type, message, code: null, param: null } });
}

function usage(turn: ChatTurn, ctx: ChatWireContext) {
  if (turn.usage) return { ...turn.usage, total_tokens: turn.usage.prompt_tokens + turn.usage.completion_tokens };
  const completion = Math.max(1, Math.ceil(JSON.stringify(turn).length / 4));
  return { prompt_tokens: ctx.promptTokens, completion_tokens: completion, total_tokens: ctx.promptTokens + completion };
}

function newId(prefix: string): string {
  return prefix + randomBytes(9).toString('base64url');
}
