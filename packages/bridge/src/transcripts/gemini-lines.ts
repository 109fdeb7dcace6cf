import { z } from 'zod';
import type { ToolStatus, WireItemInput } from '@collie/protocol';
import { type Entry, epoch, itemId, resultStatus, toolInputSummary } from './entries';

/**
 * Gemini CLI's session JSONL (`<gemini dir>/tmp/<project>/chats/session-<time>-<id>.jsonl`,
 * 0.61): a first line of metadata (`sessionId`, `startTime`), then message records
 * `{id, timestamp, type, content, thoughts?, toolCalls?}`, `{$set: …}` metadata updates (the
 * first carries the session's opening context as `messages`) and `{$rewindTo: id}`. A message
 * record is written again under the same id as its tool calls run and settle: each item of a
 * message carries a key, and the newest version stands where the first did.
 */
const Part = z
  .object({
    text: z.string().optional(),
    thought: z.boolean().optional(),
    inlineData: z.unknown().optional(),
    fileData: z.unknown().optional(),
    functionResponse: z.unknown().optional(),
  })
  .passthrough();
const Content = z.union([z.string(), z.array(z.union([z.string(), Part]))]);
const Thought = z.object({ subject: z.string().optional(), description: z.string().optional() }).passthrough();
const FunctionResponse = z.object({ response: z.object({ output: z.unknown().optional(), error: z.unknown().optional() }).passthrough().optional() }).passthrough();
const ToolCall = z
  .object({
    id: z.string(),
    name: z.string(),
    args: z.unknown().optional(),
    status: z.string().optional(),
    result: z.array(z.object({ functionResponse: FunctionResponse.optional() }).passthrough()).nullish(),
    resultDisplay: z.unknown().optional(),
  })
  .passthrough();
const Message = z
  .object({
    id: z.string(),
    timestamp: z.string().optional(),
    type: z.string(),
    content: Content.optional(),
    displayContent: Content.optional(),
    thoughts: z.array(Thought).nullish(),
    toolCalls: z.array(ToolCall).nullish(),
  })
  .passthrough();
const Metadata = z.object({ sessionId: z.string(), projectHash: z.string().optional() }).passthrough();
const SetRecord = z.object({ $set: z.object({ messages: z.array(z.unknown()).optional() }).passthrough() });
const Rewind = z.object({ $rewindTo: z.string() });

/** The context Gemini CLI sends as the first user message: not the person's words. */
const CONTEXT = /^\s*<session_context>/;

function textOf(content: z.infer<typeof Content> | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => (typeof p === 'string' ? p : p.thought === true ? '' : (p.text ?? ''))).join('');
}

/** Words of a tool call's result: its function response's output (or error), else what the CLI displayed as text. */
function outputOf(call: z.infer<typeof ToolCall>): string {
  const words = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
  const response = call.result?.map((r) => r.functionResponse?.response).find((r) => r !== undefined);
  const raw = response ? words(response.output ?? response.error) : typeof call.resultDisplay === 'string' ? call.resultDisplay : '';
  // The CLI wraps command output for the model; the person sees what is inside.
  return raw.replace(/^<untrusted_context>\n?/, '').replace(/\n?<\/untrusted_context>$/, '');
}

/** Gemini CLI's tool call statuses: settled ones as the chat's, the rest still running. */
function statusOf(call: z.infer<typeof ToolCall>, output: string): ToolStatus {
  if (call.status === 'success') return resultStatus(output, false);
  if (call.status === 'error') return resultStatus(output, true);
  if (call.status === 'cancelled') return 'denied';
  return 'running';
}

/** An item before its place and time are known. */
type ItemWords = WireItemInput extends infer I ? (I extends unknown ? Omit<I, 'id' | 'at'> : never) : never;

function messageEntries(m: z.infer<typeof Message>, offset: number): Entry[] {
  const at = epoch(m.timestamp);
  const out: Entry[] = [];
  const add = (key: string, item: ItemWords) => out.push({ kind: 'item', key: `${m.id}:${key}`, item: { ...item, id: itemId(offset, out.length), at } as WireItemInput });
  if (m.type === 'user') {
    const content = m.displayContent ?? m.content;
    const text = textOf(content);
    if (text.trim() !== '' && !CONTEXT.test(text)) add('text', { kind: 'user', text });
    const parts = Array.isArray(content) ? content : [];
    parts.forEach((p, i) => {
      if (typeof p === 'string') return;
      if (p.inlineData !== undefined) add(`attach:${i}`, { kind: 'notice', text: 'Image attached' });
      else if (p.fileData !== undefined) add(`attach:${i}`, { kind: 'notice', text: 'File attached' });
    });
    return out;
  }
  if (m.type === 'gemini') {
    (m.thoughts ?? []).forEach((t, i) => {
      const text = [t.subject, t.description].filter((s) => s !== undefined && s.trim() !== '').join('\n\n');
      if (text !== '') add(`thought:${i}`, { kind: 'thinking', text });
    });
    const text = textOf(m.content);
    if (text.trim() !== '') add('text', { kind: 'markdown', text });
    for (const call of m.toolCalls ?? []) {
      const output = outputOf(call);
      add(`tool:${call.id}`, { kind: 'tool', callId: null, name: call.name, input: toolInputSummary(call.name, call.args), status: statusOf(call, output), output });
    }
    return out;
  }
  // `info`, `warning` and `error` records: what the CLI told the person.
  const text = textOf(m.content);
  if (['info', 'warning', 'error'].includes(m.type) && text.trim() !== '') add('text', { kind: 'notice', text });
  return out;
}

/** One line of a Gemini CLI session file as entries; a line of any other shape is skipped. */
export function parseGeminiLine(raw: string, offset: number): Entry[] {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return [];
  }
  const rewind = Rewind.safeParse(json);
  if (rewind.success) return [{ kind: 'item', item: { kind: 'notice', id: itemId(offset, 0), at: 0, text: 'Rewound to an earlier message' } }];
  const set = SetRecord.safeParse(json);
  if (set.success) {
    // Messages set at once (the session's opening context, a compressed history): each as if written on this line.
    const out: Entry[] = [];
    for (const raw of set.data.$set.messages ?? []) {
      const m = Message.safeParse(raw);
      if (m.success) for (const e of messageEntries(m.data, offset)) out.push(e.kind === 'item' ? { ...e, item: { ...e.item, id: itemId(offset, out.length) } } : e);
    }
    return out;
  }
  const message = Message.safeParse(json);
  if (message.success) return messageEntries(message.data, offset);
  const meta = Metadata.safeParse(json);
  if (meta.success) return [{ kind: 'session', id: meta.data.sessionId }];
  return [];
}
