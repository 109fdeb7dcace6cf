/**
 * The Gemini API as Gemini CLI 0.61 speaks it (paths under GOOGLE_GEMINI_BASE_URL):
 * - `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` with `tools`: a conversation
 *   turn, answered as SSE `data: <GenerateContentResponse>` chunks, the last with
 *   `finishReason: "STOP"`; a shell call is one `functionCall` of `run_shell_command`.
 * - `POST …:generateContent` (the model router, the next-speaker check) and any stream without
 *   tools: side calls, answered with one JSON text that serves every such check.
 */
import type { ServerResponse } from 'node:http';
import { paced, textPieces, type AgentRequest, type AgentTurn, type AgentWire, type DecodedAgentRequest } from '../scripted-api';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The environment block the CLI sends as the first user message; nobody typed it. */
const CONTEXT = /^\s*(?:This is the Gemini CLI\.|<session_context>|<environment>)/u;

function decode(method: string, pathname: string, body: unknown): DecodedAgentRequest {
  const model = /\/models\/([^/:]+):/u.exec(pathname)?.[1] ?? '';
  const empty: DecodedAgentRequest = { kind: 'probe', prompt: '', userMessages: [], toolOutputs: [], model };
  if (method !== 'POST' || !isRecord(body)) return empty;
  const userMessages: string[] = [];
  const toolOutputs: string[] = [];
  const contents = Array.isArray(body.contents) ? body.contents.filter(isRecord) : [];
  for (const c of contents) {
    if (c.role !== 'user' || !Array.isArray(c.parts)) continue;
    const parts = c.parts.filter(isRecord);
    for (const p of parts) if (isRecord(p.functionResponse)) toolOutputs.push(JSON.stringify(p.functionResponse.response ?? null));
    // The context block and the first prompt come as two text parts of one message.
    const text = parts.map((p) => (typeof p.text === 'string' && !CONTEXT.test(p.text) ? p.text : '')).join('');
    if (text !== '') userMessages.push(text);
  }
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const kind = pathname.endsWith(':streamGenerateContent') && tools.length > 0 ? 'main' : 'side';
  return { kind, prompt: userMessages.at(-1) ?? '', userMessages, toolOutputs, model };
}

/** The usage every scripted answer reports: tests check the figures Gemini CLI records against it. */
export const GEMINI_USAGE = { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 } as const;
const usage = GEMINI_USAGE;
const chunk = (parts: unknown[], finish: boolean) => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: 'STOP' } : {}) }],
  usageMetadata: usage,
});
/** One JSON answer for every side check: the router's choice and the next-speaker verdict. */
const SIDE_TEXT = JSON.stringify({ reasoning: 'Scripted.', model_choice: 'flash', next_speaker: 'user' });

async function answer(res: ServerResponse, req: AgentRequest, turn: AgentTurn | null, signal: AbortSignal): Promise<void> {
  const pathname = req.path.split('?')[0] ?? '';
  if (req.kind === 'probe') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
    return;
  }
  const stream = pathname.endsWith(':streamGenerateContent');
  if (!stream && !pathname.endsWith(':generateContent')) {
    if (pathname.endsWith(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalTokens: 100 }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(error(404, `the scripted Gemini API has no ${req.path}`));
    return;
  }
  const t: AgentTurn = turn ?? { text: SIDE_TEXT };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(chunk([{ text: t.text ?? '' }], true)));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (data: unknown) => {
    if (!signal.aborted) res.write(`data: ${JSON.stringify(data)}\r\n\r\n`);
  };
  const pieces = t.text ? textPieces(t.text) : [];
  const call = t.shell
    ? { functionCall: { name: 'run_shell_command', args: { command: t.shell.command, description: t.shell.reason ?? 'Run the scripted command' } } }
    : t.tool
      ? { functionCall: { name: t.tool.name, args: t.tool.args } }
      : null;
  // A pause first, so a delayed call still shows a running turn; every chunk but the last is open.
  const steps: Array<() => void> = [() => undefined];
  pieces.forEach((text, i) => steps.push(() => send(chunk([{ text }], call === null && i === pieces.length - 1))));
  if (call) steps.push(() => send(chunk([call], true)));
  if (pieces.length === 0 && !call) steps.push(() => send(chunk([{ text: '' }], true)));
  await paced(steps, t.durationMs ?? 0, signal);
  if (!signal.aborted) res.end();
}

function error(status: number, message: string): string {
  return JSON.stringify({ error: { code: status, message, status: status === 404 ? 'NOT_FOUND' : 'INVALID_ARGUMENT' } });
}

/** The Gemini wire for {@link startScriptedApi}. */
export const geminiWire: AgentWire = { name: 'Gemini', decode, answer, error };
