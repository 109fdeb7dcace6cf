import { z } from 'zod';
import { type Entry, epoch, itemId, resultStatus, toolInputSummary } from './entries';

/**
 * pi's session JSONL (`<agent dir>/sessions/--<cwd>--/<time>_<id>.jsonl`, 0.73): a `session`
 * header (`id`, `timestamp`, `cwd`), then entries appended once each: `message` (the person's,
 * the assistant's with its text, thinking and tool calls, a `toolResult`, a `!` command the
 * person ran, an extension's message), `compaction`, `custom_message`, and settings changes
 * the chat skips. pi's entries form a tree (`parentId`); the chat reads them in file order.
 */
const Block = z.object({ type: z.string(), text: z.string().optional(), thinking: z.string().optional(), id: z.string().optional(), name: z.string().optional(), arguments: z.unknown().optional() }).passthrough();
const Content = z.union([z.string(), z.array(Block)]);
const Line = z.object({ type: z.string(), id: z.string().optional(), timestamp: z.unknown().optional() }).passthrough();
const User = z.object({ role: z.literal('user'), content: Content });
const Assistant = z.object({ role: z.literal('assistant'), content: z.array(Block), stopReason: z.string().optional(), errorMessage: z.string().optional() });
const ToolResult = z.object({ role: z.literal('toolResult'), toolCallId: z.string(), content: Content.optional(), isError: z.boolean().optional() });
const Bash = z.object({ role: z.literal('bashExecution'), command: z.string(), output: z.string().optional(), exitCode: z.number().nullish(), cancelled: z.boolean().optional() });
const Custom = z.object({ role: z.literal('custom'), content: Content, display: z.boolean().optional() });
const Summary = z.object({ role: z.enum(['branchSummary', 'compactionSummary']), summary: z.string() });

function textOf(content: z.infer<typeof Content> | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' ? (b.text ?? '') : b.type === 'image' ? '[image]' : '')).join('');
}

function messageEntries(m: unknown, offset: number, at: number): Entry[] {
  const out: Entry[] = [];
  const id = () => itemId(offset, out.length);
  const user = User.safeParse(m);
  if (user.success) {
    const { content } = user.data;
    const text = typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('');
    if (text.trim() !== '') out.push({ kind: 'item', item: { kind: 'user', id: id(), at, text } });
    // Images the person attached: a placeholder, never their bytes.
    if (Array.isArray(content)) for (const b of content) if (b.type === 'image') out.push({ kind: 'item', item: { kind: 'notice', id: id(), at, text: 'Image attached' } });
    return out;
  }
  const assistant = Assistant.safeParse(m);
  if (assistant.success) {
    for (const b of assistant.data.content) {
      if (b.type === 'text' && (b.text ?? '').trim() !== '') out.push({ kind: 'item', item: { kind: 'markdown', id: id(), at, text: b.text ?? '' } });
      else if (b.type === 'thinking' && (b.thinking ?? '').trim() !== '') out.push({ kind: 'item', item: { kind: 'thinking', id: id(), at, text: b.thinking ?? '' } });
      else if (b.type === 'toolCall' && b.name !== undefined) {
        out.push({ kind: 'item', item: { kind: 'tool', id: id(), at, callId: b.id ?? null, name: b.name, input: toolInputSummary(b.name, b.arguments), status: 'running', output: '' } });
      }
    }
    const { stopReason, errorMessage } = assistant.data;
    if (stopReason === 'aborted') out.push({ kind: 'item', item: { kind: 'notice', id: id(), at, text: 'Interrupted' } });
    else if (stopReason === 'error') out.push({ kind: 'item', item: { kind: 'notice', id: id(), at, text: errorMessage ?? 'The model answered with an error.' } });
    return out;
  }
  const result = ToolResult.safeParse(m);
  if (result.success) {
    // pi's bash output ends with the command's last newline: not a line of its own.
    const text = textOf(result.data.content).replace(/\n$/, '');
    return [{ kind: 'result', callId: result.data.toolCallId, output: text, status: resultStatus(text, result.data.isError === true) }];
  }
  const bash = Bash.safeParse(m);
  if (bash.success) {
    const { command, output, exitCode, cancelled } = bash.data;
    const status = cancelled === true ? 'denied' : typeof exitCode === 'number' && exitCode !== 0 ? 'failed' : 'done';
    return [{ kind: 'item', item: { kind: 'tool', id: id(), at, callId: null, name: 'bash', input: command, status, output: (output ?? '').replace(/\n$/, '') } }];
  }
  const custom = Custom.safeParse(m);
  if (custom.success) {
    const text = textOf(custom.data.content);
    return custom.data.display === false || text.trim() === '' ? [] : [{ kind: 'item', item: { kind: 'notice', id: id(), at, text } }];
  }
  const summary = Summary.safeParse(m);
  if (summary.success) return [{ kind: 'item', item: { kind: 'notice', id: id(), at, text: summary.data.role === 'compactionSummary' ? 'Conversation compacted' : 'Back from a branch' } }];
  return out;
}

/** One line of a pi session file as entries; a line of any other shape is skipped. */
export function parsePiLine(raw: string, offset: number): Entry[] {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return [];
  }
  const line = Line.safeParse(json);
  if (!line.success) return [];
  const { type } = line.data;
  const at = epoch(line.data.timestamp);
  const rest = line.data as Record<string, unknown>;
  if (type === 'session') return typeof line.data.id === 'string' ? [{ kind: 'session', id: line.data.id }] : [];
  if (type === 'message') return messageEntries(rest.message, offset, at);
  if (type === 'compaction') return [{ kind: 'item', item: { kind: 'notice', id: itemId(offset, 0), at, text: 'Conversation compacted' } }];
  if (type === 'custom_message' && rest.display !== false) {
    const content = Content.safeParse(rest.content);
    const text = content.success ? textOf(content.data) : '';
    return text.trim() === '' ? [] : [{ kind: 'item', item: { kind: 'notice', id: itemId(offset, 0), at, text } }];
  }
  return [];
}
