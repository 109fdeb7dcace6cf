import type * as acp from '@agentclientprotocol/sdk';
import { LIMITS, type PermissionAction, type Progress, type ToolStatus, type WireAnswer } from '@collie/protocol';
import type { QuestionSpec } from '@collie/durable-sdk';

/**
 * The pure half of the bridge: ACP messages in, durable wire shapes out (docs/acp.md has the
 * table). Nothing here trusts the agent: every string is cut to its wire limit, and every
 * count to its wire maximum, before the SDK sees it (the SDK and the bridge cut again).
 */

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const oneLine = (s: string): string => s.replace(/\s+/gu, ' ').trim();
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** ACP option kinds in Collie's words: the phone shows Allow, Always allow, Deny. */
export function optionAction(kind: string): PermissionAction {
  switch (kind) {
    case 'allow_once':
      return 'allow';
    case 'allow_always':
      return 'always';
    case 'reject_once':
    case 'reject_always':
      return 'deny';
    default:
      return 'cancel';
  }
}

/** An ACP tool status as a tool item's status. */
export function toolStatus(status: string | null | undefined): ToolStatus {
  if (status === 'completed') return 'done';
  if (status === 'failed') return 'failed';
  return 'running';
}

/** The text of a content block: text as it is, links and resources by name, media as a word. */
export function blockText(block: acp.ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `[${block.title ?? block.name}](${block.uri})`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[${block.resource.uri}]`;
    case 'image':
      return '[image]';
    case 'audio':
      return '[audio]';
    default:
      return '';
  }
}

/** A diff as the text of a `code` item in language `diff`. */
export function diffText(d: { path: string; oldText?: string | null; newText: string }): string {
  const lines = (s: string) => (s === '' ? [] : s.split('\n'));
  let old = lines(d.oldText ?? '');
  let now = lines(d.newText);
  // Both end with a newline: that is no line of its own (it showed as a blank context line).
  if (old.at(-1) === '' && now.at(-1) === '') [old, now] = [old.slice(0, -1), now.slice(0, -1)];
  // Common head and tail are context; the middle is what changed. Enough for a phone.
  let head = 0;
  while (head < old.length && head < now.length && old[head] === now[head]) head++;
  let tail = 0;
  while (tail < old.length - head && tail < now.length - head && old[old.length - 1 - tail] === now[now.length - 1 - tail]) tail++;
  const out = [`--- ${d.oldText == null ? '/dev/null' : d.path}`, `+++ ${d.path}`];
  for (const l of old.slice(Math.max(0, head - 2), head)) out.push(` ${l}`);
  for (const l of old.slice(head, old.length - tail)) out.push(`-${l}`);
  for (const l of now.slice(head, now.length - tail)) out.push(`+${l}`);
  for (const l of now.slice(now.length - tail, now.length - tail + 2)) out.push(` ${l}`);
  return cut(out.join('\n'), LIMITS.itemText);
}

/** What a tool call's content says: its text (for the tool item's output) and its diffs (as code items). */
export function toolContent(content: readonly acp.ToolCallContent[] | null | undefined): { text: string; diffs: string[] } {
  const text: string[] = [];
  const diffs: string[] = [];
  for (const c of (content ?? []).slice(0, 100)) {
    if (c.type === 'content') text.push(blockText(c.content));
    else if (c.type === 'diff') diffs.push(diffText(c));
    else if (c.type === 'terminal') text.push(`[terminal ${c.terminalId}]`);
  }
  return { text: cut(text.join('\n'), LIMITS.toolOutput), diffs };
}

/** The tool item's name and one-line input: the agent's kind and title, else the command it runs. */
export function toolHead(t: { title?: string | null; kind?: string | null; name?: string | null; rawInput?: unknown; locations?: readonly { path: string }[] | null }): { name: string; input: string } {
  const name = cut(oneLine(t.name ?? t.kind ?? 'tool') || 'tool', LIMITS.toolName);
  const raw = isRecord(t.rawInput) ? t.rawInput : {};
  const command = typeof raw.command === 'string' ? raw.command : Array.isArray(raw.command) ? raw.command.filter((x) => typeof x === 'string').join(' ') : null;
  const input = oneLine(t.title ?? command ?? t.locations?.[0]?.path ?? '');
  return { name, input: cut(input, LIMITS.toolInput) };
}

/** Plan entries as steps progress; no entries, no progress. */
export function planProgress(entries: readonly acp.PlanEntry[]): Progress | null {
  if (entries.length === 0) return null;
  const state = (s: string) => (s === 'completed' ? 'done' : s === 'in_progress' ? 'running' : 'pending');
  return { kind: 'steps', steps: entries.slice(0, 50).map((e) => ({ label: cut(oneLine(e.content) || 'step', 120), state: state(e.status) })) };
}

/** A permission request as a card: wire option ids are the option's place, so any agent id fits. */
export function permissionSpec(req: acp.RequestPermissionRequest, agentName: string): { spec: QuestionSpec; optionIds: string[] } {
  const options = req.options.slice(0, LIMITS.permissionOptions);
  const head = toolHead(req.toolCall);
  const body = toolContent(req.toolCall.content);
  const what = head.input || head.name;
  const spec: QuestionSpec = {
    kind: 'permission',
    title: cut(`Allow ${what}?`, LIMITS.questionTitle),
    body: [body.text, ...body.diffs].filter(Boolean).join('\n\n') || null,
    toolCall: { id: cut(req.toolCall.toolCallId, LIMITS.id), name: head.name },
    push: { title: cut(`${agentName} asks to ${head.name}`, LIMITS.pushTitle), line: cut(what, LIMITS.pushLine) },
    options: options.map((o, i) => ({ id: `o${i}`, action: optionAction(o.kind), label: cut(oneLine(o.name) || o.kind, LIMITS.optionLabel) })),
  };
  return { spec, optionIds: options.map((o) => o.optionId) };
}

/** The phone's answer to a permission card as the ACP outcome. */
export function permissionOutcome(answer: WireAnswer | null, optionIds: readonly string[]): acp.RequestPermissionResponse {
  if (answer?.kind !== 'permission') return { outcome: { outcome: 'cancelled' } };
  const id = optionIds[Number(/^o(\d)$/u.exec(answer.option)?.[1] ?? -1)];
  return id === undefined ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId: id } };
}

/**
 * The session's model choice: the first `select` config option of category `model`, its values
 * flattened out of their groups (at most 20, names kept to the belt's label length by the belt).
 * Null when the agent offers fewer than two models. Read defensively: whatever the agent sent
 * past the schema, entries that are not what they claim are left out.
 */
export function modelChoice(config: readonly acp.SessionConfigOption[] | null | undefined): { configId: string; current: string; options: { value: string; name: string }[] } | null {
  const o = (Array.isArray(config) ? config : []).find((c): c is acp.SessionConfigOption => isRecord(c) && c.category === 'model' && c.type === 'select');
  if (!o || o.type !== 'select' || !Array.isArray(o.options) || typeof o.id !== 'string') return null;
  const entries: unknown[] = o.options;
  const flat = entries
    .flatMap((x) => (isRecord(x) && 'group' in x ? (Array.isArray(x.options) ? (x.options as unknown[]) : []) : [x]))
    .filter((x): x is { value: string; name: string } => isRecord(x) && typeof x.value === 'string' && typeof x.name === 'string');
  if (flat.length < 2) return null;
  return { configId: o.id, current: typeof o.currentValue === 'string' ? o.currentValue : '', options: flat.slice(0, 20).map((x) => ({ value: x.value, name: x.name })) };
}
