import type { WireItemInput } from '@collie/protocol';
import { z } from 'zod';
import { type Entry, itemId, resultStatus, toolInputSummary } from './entries';

/**
 * OpenCode 1.18 keeps a conversation in SQLite (`<data>/opencode.db`): a `message` row per
 * message (`data`: JSON with its `role`, `error` when a turn failed or was stopped) and a
 * `part` row per piece of it (`data`: JSON with its `type`). A part is written when it starts
 * and rewritten in place as it changes (a text as it streams, a tool call from `pending`
 * through `running` to `completed` or `error`): each row is one keyed item (the key is the
 * part's id), so a later version replaces the earlier where it stands. The item's place is
 * the part's rowid, the "offset" History pages by.
 *
 * Parts the chat shows: `text` (the person's words in a user message, markdown in an
 * assistant's; `synthetic` and `ignored` texts are OpenCode's own and skipped), `reasoning`
 * (thinking), `tool` (its input summarised, output and status), `file` (a placeholder),
 * `subtask` and `agent` (a notice), `compaction` (a notice), `retry` (a notice). Step markers,
 * snapshots and patches are bookkeeping and skipped, as is any type this version does not know.
 */

/** One row of `part`, with the `data` of its message. */
export interface PartRow {
  readonly rowid: number;
  readonly id: string;
  readonly message: string;
  readonly created: number;
  readonly data: string;
  readonly messageData: string;
}

const Message = z.object({ role: z.enum(['user', 'assistant']) }).passthrough();
const Part = z.object({ type: z.string() }).passthrough();
const Text = z.object({ text: z.string(), synthetic: z.boolean().optional(), ignored: z.boolean().optional() });
const Reasoning = z.object({ text: z.string() });
const ToolState = z.object({
  status: z.string(),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
  title: z.unknown().optional(),
});
const Tool = z.object({ tool: z.string(), callID: z.string().optional(), state: ToolState });
const File = z.object({ mime: z.string().optional(), filename: z.string().optional() });
const Subtask = z.object({ description: z.string().optional(), prompt: z.string().optional(), agent: z.string().optional() });
const Named = z.object({ name: z.string() });
const Retry = z.object({ attempt: z.number().optional(), error: z.unknown().optional() });

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The role of a message from its `data`, or null when it is not one OpenCode writes. */
export function messageRole(data: string): 'user' | 'assistant' | null {
  const m = Message.safeParse(json(data));
  return m.success ? m.data.role : null;
}

/** Words OpenCode puts in a tool's error when the person said no (1.18: "The user rejected permission to use this specific tool call."). */
const REJECTED = /user rejected|rejected permission|user dismissed/i;

function toolEntry(p: z.infer<typeof Tool>, id: string, at: number): WireItemInput {
  const { state } = p;
  const input = toolInputSummary(p.tool, state.input);
  const text = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : (JSON.stringify(v) ?? ''));
  if (state.status === 'completed') {
    const output = text(state.output).replace(/\n$/, '');
    return { kind: 'tool', id, at, callId: null, name: p.tool, input, status: resultStatus(output, false), output };
  }
  if (state.status === 'error') {
    const output = text(state.error);
    return { kind: 'tool', id, at, callId: null, name: p.tool, input, status: REJECTED.test(output.slice(0, 500)) ? 'denied' : resultStatus(output, true), output };
  }
  return { kind: 'tool', id, at, callId: null, name: p.tool, input, status: 'running', output: '' };
}

/**
 * One part row as entries (at most one item, keyed by the part's id); a row of any shape it
 * does not know, or whose JSON does not parse, is skipped. Never throws.
 */
export function parseOpencodePart(row: PartRow): Entry[] {
  const role = messageRole(row.messageData);
  const part = Part.safeParse(json(row.data));
  if (role === null || !part.success) return [];
  const id = itemId(row.rowid, 0);
  const at = Number.isFinite(row.created) ? row.created : 0;
  const item = (it: WireItemInput): Entry[] => [{ kind: 'item', item: it, key: row.id }];
  const d = part.data;
  switch (d.type) {
    case 'text': {
      const t = Text.safeParse(d);
      if (!t.success || t.data.synthetic === true || t.data.ignored === true || t.data.text.trim() === '') return [];
      return item(role === 'user' ? { kind: 'user', id, at, text: t.data.text } : { kind: 'markdown', id, at, text: t.data.text });
    }
    case 'reasoning': {
      const t = Reasoning.safeParse(d);
      return t.success && t.data.text.trim() !== '' ? item({ kind: 'thinking', id, at, text: t.data.text }) : [];
    }
    case 'tool': {
      const t = Tool.safeParse(d);
      return t.success ? item(toolEntry(t.data, id, at)) : [];
    }
    case 'file': {
      const f = File.safeParse(d);
      const image = f.success && f.data.mime?.startsWith('image/') === true;
      const name = f.success && f.data.filename ? `: ${f.data.filename}` : '';
      return item({ kind: 'notice', id, at, text: image ? 'Image attached' : `File attached${name}` });
    }
    case 'subtask': {
      const s = Subtask.safeParse(d);
      const what = s.success ? (s.data.description ?? s.data.prompt ?? '') : '';
      return item({ kind: 'notice', id, at, text: `Sub-agent${s.success && s.data.agent ? ` ${s.data.agent}` : ''}${what ? `: ${what}` : ''}` });
    }
    case 'agent': {
      const a = Named.safeParse(d);
      return a.success ? item({ kind: 'notice', id, at, text: `Agent @${a.data.name}` }) : [];
    }
    case 'compaction':
      return item({ kind: 'notice', id, at, text: 'Conversation compacted' });
    case 'retry': {
      const r = Retry.safeParse(d);
      return item({ kind: 'notice', id, at, text: `Retrying the model call${r.success && r.data.attempt !== undefined ? ` (attempt ${r.data.attempt})` : ''}` });
    }
    default:
      return [];
  }
}
