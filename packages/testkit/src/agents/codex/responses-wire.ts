/**
 * The OpenAI Responses API as Codex 0.171 speaks it: `GET /v1/models` at start, then per turn
 * `POST /v1/responses` with `stream: true`, answered as SSE `event: <type>` / `data: {type, …}`.
 * A turn is `response.created`, its output items (a message streamed as
 * `response.output_text.delta`, or an `exec_command` function call), then `response.completed`.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { paced, textPieces, type AgentRequest, type AgentTurn, type AgentWire, type DecodedAgentRequest } from '../scripted-api';

/**
 * Blocks Codex adds to the conversation as user messages that nobody typed: the environment,
 * the project's instructions, a skills list.
 */
const CONTEXT_BLOCK = /^\s*<(?:environment_context|user_instructions|permissions instructions|skills_instructions|INSTRUCTIONS|user_shell_command|turn_aborted|collaboration_mode)\b|^\s*# AGENTS\.md instructions\b/u;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function decode(method: string, pathname: string, body: unknown): DecodedAgentRequest {
  const empty: DecodedAgentRequest = { kind: 'probe', prompt: '', userMessages: [], toolOutputs: [], model: '' };
  if (method !== 'POST' || !isRecord(body)) return empty;
  const input = Array.isArray(body.input) ? body.input.filter(isRecord) : [];
  const userMessages: string[] = [];
  const toolOutputs: string[] = [];
  for (const item of input) {
    if (item.type === 'function_call_output') toolOutputs.push(outputText(item.output));
    else if ((item.type === 'message' || item.type === undefined) && item.role === 'user') {
      const text = contentText(item.content);
      if (text !== '' && !CONTEXT_BLOCK.test(text)) userMessages.push(text);
    }
  }
  // The thread-title call carries no tools; every conversation turn offers the shell.
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const kind = pathname.endsWith('/responses') && tools.length > 0 ? 'main' : 'side';
  return { kind, prompt: userMessages.at(-1) ?? '', userMessages, toolOutputs, model: typeof body.model === 'string' ? body.model : '' };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .map((p) => (typeof p.text === 'string' ? p.text : ''))
    .join('');
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isRecord(output) && typeof output.content === 'string') return output.content;
  if (Array.isArray(output)) return contentText(output);
  return JSON.stringify(output ?? null);
}

/** The usage every scripted answer reports: tests check the figures Codex records against it. */
export const CODEX_USAGE = { input: 100, output: 20 } as const;

const newId = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

async function answer(res: ServerResponse, req: AgentRequest, turn: AgentTurn | null, signal: AbortSignal): Promise<void> {
  if (req.kind === 'probe') {
    res.writeHead(200, { 'content-type': 'application/json' });
    // `/v1/models`: no remote model list; Codex falls back to its built-in metadata.
    res.end(JSON.stringify({ object: 'list', data: [], models: [] }));
    return;
  }
  if (!req.path.split('?')[0]?.endsWith('/responses')) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(error(404, `the scripted Responses API has no ${req.path}`));
    return;
  }
  // A side call (the thread title) gets a short title.
  const t: AgentTurn = turn ?? { text: 'Scripted thread' };
  const id = newId('resp_');
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...t.headers });
  const send = (type: string, data: Record<string, unknown>) => {
    if (!signal.aborted) res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  const steps: Array<() => void> = [() => send('response.created', { response: { id } })];
  let index = 0;
  if (t.text !== undefined && t.text !== '') {
    const item = { type: 'message', role: 'assistant', id: newId('msg_') };
    const at = index++;
    steps.push(() => send('response.output_item.added', { output_index: at, item: { ...item, content: [] } }));
    for (const delta of textPieces(t.text)) steps.push(() => send('response.output_text.delta', { output_index: at, content_index: 0, delta }));
    const text = t.text;
    steps.push(() => send('response.output_item.done', { output_index: at, item: { ...item, content: [{ type: 'output_text', text, annotations: [] }] } }));
  }
  if (t.shell) {
    const args = {
      cmd: t.shell.command,
      // Outside the sandbox: the only call Codex's default `on-request` policy asks about.
      sandbox_permissions: 'require_escalated',
      justification: t.shell.reason ?? 'The scripted turn runs this command.',
    };
    const at = index++;
    const item = { type: 'function_call', id: newId('fc_'), call_id: newId('call_'), name: 'exec_command', arguments: JSON.stringify(args) };
    steps.push(() => send('response.output_item.done', { output_index: at, item }));
  }
  if (t.tool) {
    const at = index++;
    const item = { type: 'function_call', id: newId('fc_'), call_id: newId('call_'), name: t.tool.name, arguments: JSON.stringify(t.tool.args) };
    steps.push(() => send('response.output_item.done', { output_index: at, item }));
  }
  const usage = { input_tokens: CODEX_USAGE.input, input_tokens_details: { cached_tokens: 0 }, output_tokens: CODEX_USAGE.output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: CODEX_USAGE.input + CODEX_USAGE.output };
  steps.push(() => send('response.completed', { response: { id, usage } }));
  await paced(steps, t.durationMs ?? 0, signal);
  if (!signal.aborted) res.end();
}

function error(status: number, message: string): string {
  return JSON.stringify({ error: { message, type: status === 404 ? 'not_found' : 'invalid_request_error', code: null } });
}

/** The Responses wire for {@link startScriptedApi}. */
export const responsesWire: AgentWire = { name: 'Responses', decode, answer, error };
