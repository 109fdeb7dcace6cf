import { z } from 'zod';
import { type Entry, epoch, imageRefs, itemId, ownText, resultStatus, resultText, toolInputSummary } from './entries';

/**
 * Claude Code's session JSONL (`<config>/projects/<slug>/<session>.jsonl`), one object a line:
 * `user` and `assistant` lines carry an API message; `system` lines the CLI's own notes; the
 * rest (`summary`, `file-history-snapshot`, `queue-operation`, …) are skipped, as is anything
 * of a shape this reader does not know. Sub-agents write their own files (`isSidechain`): the
 * main chat shows their `Agent` call and its result.
 */
const Block = z.object({ type: z.string() }).passthrough();
const Message = z.object({ content: z.union([z.string(), z.array(Block)]) }).passthrough();
const Line = z
  .object({
    type: z.string(),
    uuid: z.string().optional(),
    sessionId: z.string().optional(),
    timestamp: z.string().optional(),
    isSidechain: z.boolean().optional(),
    isMeta: z.boolean().optional(),
    message: Message.optional(),
    subtype: z.string().optional(),
    content: z.unknown().optional(),
  })
  .passthrough();
type Line = z.infer<typeof Line>;

const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
const ThinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string() });
const ToolUse = z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() });
const ToolResult = z.object({ type: z.literal('tool_result'), tool_use_id: z.string(), content: z.unknown().optional(), is_error: z.boolean().optional() });

/** Tags the CLI wraps its own lines in, and what the chat shows of each. */
type Said = { kind: 'user' | 'notice'; text: string } | null;
const TAGGED: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => Said]> = [
  [/^<command-name>([^<]*)<\/command-name>[\s\S]*?(?:<command-args>([\s\S]*?)<\/command-args>)?/, (m) => ({ kind: 'notice', text: `${m[1] ?? ''}${m[2] ? ` ${m[2]}` : ''}`.trim() })],
  [/^<local-command-stdout>([\s\S]*?)<\/local-command-stdout>/, (m) => (m[1]?.trim() ? { kind: 'notice', text: m[1].trim() } : null)],
  [/^<local-command-stderr>([\s\S]*?)<\/local-command-stderr>/, (m) => (m[1]?.trim() ? { kind: 'notice', text: m[1].trim() } : null)],
  [/^<bash-input>([\s\S]*?)<\/bash-input>/, (m) => ({ kind: 'user', text: `! ${m[1] ?? ''}` })],
  [/^<bash-stdout>([\s\S]*?)<\/bash-stdout>/, (m) => (m[1]?.trim() ? { kind: 'notice', text: m[1].trim() } : null)],
  [/^<task-notification>[\s\S]*?(?:<summary>([\s\S]*?)<\/summary>|<status>([\s\S]*?)<\/status>)/, (m) => ({ kind: 'notice', text: `Background task: ${(m[1] ?? m[2] ?? '').trim()}` })],
  [/^<local-command-caveat>/, () => null],
  [/^<system-reminder>/, () => null],
];

/** A user's own text, or the CLI's note it stands for (a slash command, its output), or nothing. */
function userText(text: string): Said {
  const t = text.trimStart();
  for (const [re, make] of TAGGED) {
    const m = re.exec(t);
    if (m) return make(m);
  }
  if (t.startsWith('[Request interrupted by user')) return { kind: 'notice', text: 'Interrupted' };
  return t.trim() === '' ? null : { kind: 'user', text: ownText(text) };
}

function userEntries(line: Line, offset: number, at: number): Entry[] {
  const content = line.message?.content;
  if (content === undefined || line.isMeta) return [];
  const out: Entry[] = [];
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  blocks.forEach((b, i) => {
    const id = itemId(offset, i);
    const result = ToolResult.safeParse(b);
    if (result.success) {
      const output = resultText(result.data.content);
      const images = imageRefs(result.data.content, `${offset}.${i}`);
      out.push({ kind: 'result', callId: result.data.tool_use_id, output, status: resultStatus(output, result.data.is_error === true), ...(images.length > 0 ? { images } : {}) });
      return;
    }
    const text = TextBlock.safeParse(b);
    if (text.success) {
      const said = userText(text.data.text);
      if (said) out.push({ kind: 'item', item: { kind: said.kind, id, at, text: said.text } });
      return;
    }
    const images = b.type === 'image' ? imageRefs(blocks, String(offset)).filter((m) => m.ref === `${offset}.${i}`) : [];
    if (b.type === 'image' || b.type === 'document') out.push({ kind: 'item', item: { kind: 'notice', id, at, text: b.type === 'image' ? 'Image attached' : 'File attached' }, ...(images.length > 0 ? { images } : {}) });
  });
  return out;
}

function assistantEntries(line: Line, offset: number, at: number): Entry[] {
  const content = line.message?.content;
  if (content === undefined) return [];
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  const out: Entry[] = [];
  blocks.forEach((b, i) => {
    const id = itemId(offset, i);
    const text = TextBlock.safeParse(b);
    if (text.success) {
      if (text.data.text.trim() !== '') out.push({ kind: 'item', item: { kind: 'markdown', id, at, text: text.data.text } });
      return;
    }
    const thinking = ThinkingBlock.safeParse(b);
    if (thinking.success) {
      if (thinking.data.thinking.trim() !== '') out.push({ kind: 'item', item: { kind: 'thinking', id, at, text: thinking.data.thinking } });
      return;
    }
    const tool = ToolUse.safeParse(b);
    if (tool.success) {
      const { id: callId, name, input } = tool.data;
      out.push({ kind: 'item', item: { kind: 'tool', id, at, callId, name, input: toolInputSummary(name, input), status: 'running', output: '' } });
    }
  });
  return out;
}

const SYSTEM_NOTES: Readonly<Record<string, string>> = { compact_boundary: 'Conversation compacted' };

function systemEntries(line: Line, offset: number, at: number): Entry[] {
  // Own keys only: a subtype named `constructor` or `toString` is no note.
  const note = line.subtype && Object.hasOwn(SYSTEM_NOTES, line.subtype) ? SYSTEM_NOTES[line.subtype] : undefined;
  const text = note ?? (line.subtype === 'local_command' && typeof line.content === 'string' ? userText(line.content)?.text : undefined);
  return text ? [{ kind: 'item', item: { kind: 'notice', id: itemId(offset, 0), at, text } }] : [];
}

/** One line of a Claude Code session file as entries; a line of any other shape is skipped. */
export function parseClaudeLine(raw: string, offset: number): Entry[] {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return [];
  }
  const parsed = Line.safeParse(json);
  if (!parsed.success || parsed.data.isSidechain) return [];
  const line = parsed.data;
  const at = epoch(line.timestamp);
  const session: Entry[] = line.sessionId ? [{ kind: 'session', id: line.sessionId }] : [];
  switch (line.type) {
    case 'user':
      return [...session, ...userEntries(line, offset, at)];
    case 'assistant':
      return [...session, ...assistantEntries(line, offset, at)];
    case 'system':
      return [...session, ...systemEntries(line, offset, at)];
    default:
      return session;
  }
}
