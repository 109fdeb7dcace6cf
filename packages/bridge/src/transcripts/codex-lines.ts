import { z } from 'zod';
import { type Entry, epoch, itemId, ownText, resultStatus, toolInputSummary } from './entries';

/**
 * Codex's rollout JSONL (`<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`): each line
 * `{timestamp, type, payload}`. The chat reads `response_item`s (messages, reasoning summaries,
 * tool calls and their outputs), the session id from `session_meta`, and a few `event_msg`s
 * that say something the items do not (an aborted turn). Everything else is skipped.
 */
const Line = z.object({ timestamp: z.string().optional(), type: z.string(), payload: z.object({ type: z.string().optional() }).passthrough() }).passthrough();

const Part = z.object({ type: z.string(), text: z.string().optional() }).passthrough();
const MessageItem = z.object({ type: z.literal('message'), role: z.string(), content: z.array(Part) });
const Reasoning = z.object({ type: z.literal('reasoning'), summary: z.array(Part).optional() });
const FunctionCall = z.object({ type: z.literal('function_call'), name: z.string(), arguments: z.string().optional(), call_id: z.string() });
const CustomCall = z.object({ type: z.literal('custom_tool_call'), name: z.string(), input: z.string().optional(), call_id: z.string() });
const LocalShell = z.object({ type: z.literal('local_shell_call'), call_id: z.string().nullish(), id: z.string().nullish(), action: z.object({ command: z.array(z.string()).optional() }).passthrough() });
const Output = z.object({
  type: z.enum(['function_call_output', 'custom_tool_call_output']),
  call_id: z.string(),
  output: z.union([z.string(), z.object({ content: z.string().optional(), success: z.boolean().nullish() }).passthrough()]),
});
const WebSearch = z.object({ type: z.literal('web_search_call'), action: z.object({ query: z.string().optional() }).passthrough().optional() });

/** Context Codex sends as a user message before the person's own words: not the person's. */
const CONTEXT = /^\s*(?:<environment_context>|<user_instructions>|<permissions instructions>|<user_shell_command>|<turn_aborted>|# AGENTS\.md instructions|<INSTRUCTIONS>)/;

function jsonOf(s: string | undefined): unknown {
  if (s === undefined) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** A shell call's output is a JSON string with the exit code in older versions, plain text with "Exit code: N" in newer. */
function outputOf(raw: z.infer<typeof Output>['output']): { text: string; failed: boolean } {
  if (typeof raw !== 'string') return { text: raw.content ?? '', failed: raw.success === false };
  const json = jsonOf(raw);
  if (json !== null && typeof json === 'object' && 'output' in json && typeof json.output === 'string') {
    const code = (json as { metadata?: { exit_code?: unknown } }).metadata?.exit_code;
    return { text: json.output, failed: typeof code === 'number' && code !== 0 };
  }
  const code = /^Exit code: (\d+)/m.exec(raw.slice(0, 200));
  return { text: raw, failed: code !== null && code[1] !== '0' };
}

function responseItem(p: unknown, offset: number, at: number): Entry[] {
  const id = itemId(offset, 0);
  const message = MessageItem.safeParse(p);
  if (message.success) {
    const text = message.data.content.map((c) => c.text ?? '').join('');
    if (message.data.role === 'assistant' && text.trim() !== '') return [{ kind: 'item', item: { kind: 'markdown', id, at, text } }];
    if (message.data.role !== 'user' || CONTEXT.test(text)) return [];
    // The person's words, then a placeholder for the images they attached (never their bytes).
    const out: Entry[] = text.trim() === '' ? [] : [{ kind: 'item', item: { kind: 'user', id, at, text: ownText(text) } }];
    if (message.data.content.some((c) => c.type === 'input_image')) out.push({ kind: 'item', item: { kind: 'notice', id: itemId(offset, 1), at, text: 'Image attached' } });
    return out;
  }
  const reasoning = Reasoning.safeParse(p);
  if (reasoning.success) {
    const text = (reasoning.data.summary ?? []).map((s) => s.text ?? '').join('\n\n');
    return text.trim() === '' ? [] : [{ kind: 'item', item: { kind: 'thinking', id, at, text } }];
  }
  const call = FunctionCall.safeParse(p);
  if (call.success) {
    const { name, call_id: callId } = call.data;
    return [{ kind: 'item', item: { kind: 'tool', id, at, callId, name, input: toolInputSummary(name, jsonOf(call.data.arguments)), status: 'running', output: '' } }];
  }
  const custom = CustomCall.safeParse(p);
  if (custom.success) {
    const { name, call_id: callId } = custom.data;
    return [{ kind: 'item', item: { kind: 'tool', id, at, callId, name, input: toolInputSummary(name, custom.data.input ?? ''), status: 'running', output: '' } }];
  }
  const shell = LocalShell.safeParse(p);
  if (shell.success) {
    const callId = shell.data.call_id ?? shell.data.id ?? null;
    return [{ kind: 'item', item: { kind: 'tool', id, at, callId, name: 'shell', input: (shell.data.action.command ?? []).join(' '), status: 'running', output: '' } }];
  }
  const out = Output.safeParse(p);
  if (out.success) {
    const { text, failed } = outputOf(out.data.output);
    return [{ kind: 'result', callId: out.data.call_id, output: text, status: resultStatus(text, failed) }];
  }
  const search = WebSearch.safeParse(p);
  if (search.success) return [{ kind: 'item', item: { kind: 'tool', id, at, callId: null, name: 'web_search', input: search.data.action?.query ?? '', status: 'done', output: '' } }];
  return [];
}

/** One line of a Codex rollout as entries; a line of any other shape is skipped. */
export function parseCodexLine(raw: string, offset: number): Entry[] {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return [];
  }
  const parsed = Line.safeParse(json);
  if (!parsed.success) return [];
  const { type, payload } = parsed.data;
  const at = epoch(parsed.data.timestamp);
  if (type === 'session_meta') return typeof payload.id === 'string' ? [{ kind: 'session', id: payload.id }] : [];
  if (type === 'response_item') return responseItem(payload, offset, at);
  if (type === 'compacted') return [{ kind: 'item', item: { kind: 'notice', id: itemId(offset, 0), at, text: 'Conversation compacted' } }];
  if (type === 'event_msg' && payload.type === 'turn_aborted') return [{ kind: 'item', item: { kind: 'notice', id: itemId(offset, 0), at, text: 'Interrupted' } }];
  return [];
}
