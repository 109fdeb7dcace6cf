import type { PaneChatImage, ToolStatus, WireItemInput } from '@collie/protocol';

/**
 * What one transcript line says, before it is fitted for the phone: chat items, and results
 * that settle a tool item written on an earlier line (matched by the call's id).
 */
export type Entry =
  /**
   * `key`: the item is one version of something the agent writes again on a later line
   * (Gemini CLI rewrites a message record as its tool calls settle): a later item with the
   * same key replaces it where it stands.
   */
  | { readonly kind: 'item'; readonly item: WireItemInput; readonly key?: string; readonly images?: readonly PaneChatImage[] }
  | { readonly kind: 'result'; readonly callId: string; readonly output: string; readonly status: ToolStatus; readonly images?: readonly PaneChatImage[] }
  /** The line names the agent's session (Claude's `sessionId`, Codex's `session_meta`). */
  | { readonly kind: 'session'; readonly id: string };

/** Parses one line of a transcript; `offset` is where the line starts in its file. Never throws. */
export type LineParser = (line: string, offset: number) => Entry[];

/** Epoch ms of an ISO time, else 0 (an item without a time sorts by its place, not its clock). */
export function epoch(at: unknown): number {
  const ms = typeof at === 'string' ? Date.parse(at) : NaN;
  return Number.isFinite(ms) ? ms : 0;
}

/** An item id from where its line starts and which part of the line it is. */
export function itemId(offset: number, part: number): string {
  return part === 0 ? String(offset) : `${offset}.${part}`;
}

/** The first value of `keys` in `input` that is a non-empty string. */
function firstString(input: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const k of keys) {
    const v = input[k];
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string') && v.length > 0) return v.join(' ');
  }
  return null;
}

const SUMMARY_KEYS = ['command', 'cmd', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt', 'notebook_path', 'skill'] as const;

/** A one-line summary of a tool call's input: its command, file, pattern or address; else the JSON. */
export function toolInputSummary(name: string, input: unknown): string {
  if (typeof input === 'string') return input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return JSON.stringify(input) ?? '';
  const o = input as Record<string, unknown>;
  if (name === 'AskUserQuestion' && Array.isArray(o.questions)) {
    return o.questions
      .map((q) => (q !== null && typeof q === 'object' && typeof (q as { question?: unknown }).question === 'string' ? (q as { question: string }).question : ''))
      .filter((q) => q !== '')
      .join(' · ');
  }
  const first = firstString(o, SUMMARY_KEYS);
  if (first !== null) return first;
  return JSON.stringify(o);
}

/** Words of a tool result: strings as they are, text blocks joined, anything else a placeholder. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return content
    .map((b: unknown) => {
      if (b === null || typeof b !== 'object') return typeof b === 'string' ? b : '';
      const block = b as { type?: unknown; text?: unknown };
      if (block.type === 'text' && typeof block.text === 'string') return block.text;
      if (block.type === 'image') return '[image]';
      return '';
    })
    .join('\n');
}

/** Image blocks of a message or a tool result, as references (`ref` is `<prefix>.<index>`), never their bytes. */
export function imageRefs(content: unknown, prefix: string): PaneChatImage[] {
  if (!Array.isArray(content)) return [];
  const out: PaneChatImage[] = [];
  content.forEach((b: unknown, i) => {
    const source = b !== null && typeof b === 'object' && (b as { type?: unknown }).type === 'image' ? (b as { source?: unknown }).source : undefined;
    const type = source !== null && typeof source === 'object' ? (source as { media_type?: unknown }).media_type : undefined;
    if (typeof type === 'string') out.push({ ref: `${prefix}.${i}`, mediaType: type });
  });
  return out;
}

/** Words every agent puts in a result when the person refused the call. */
const DENIED = /doesn't want to proceed|tool use was rejected|rejected by (?:the )?user|user denied|declined by (?:the )?user/i;

export function resultStatus(text: string, isError: boolean): ToolStatus {
  if (DENIED.test(text.slice(0, 500))) return 'denied';
  return isError ? 'failed' : 'done';
}

/** Claude Code's record of a long paste: `<pasted_content id="…">` … `</pasted_content id="…">` around the words. */
const PASTED = /<pasted_content(?:\s+id="[^"]*")?\s*>\n?([\s\S]*?)\n?<\/pasted_content(?:\s+id="[^"]*")?\s*>/g;

/**
 * The person's own words as they typed or pasted them: an agent's paste wrappers taken off, blank
 * lines at the start and end dropped, and runs of blank lines made one. Pure.
 */
export function ownText(text: string): string {
  return text
    .replace(PASTED, (_, inner: string) => inner)
    .replace(/^(?:[ \t]*\r?\n)+/, '')
    .replace(/(?:\r?\n[ \t]*)+$/, '')
    .replace(/\n(?:[ \t]*\n){2,}/g, '\n\n');
}
