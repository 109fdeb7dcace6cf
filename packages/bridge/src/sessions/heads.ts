import { closeSync, openSync, readSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SessionAgent } from '@collie/protocol';
import { readerOf } from '../transcripts/finders';
import { splitLines } from '../transcripts/file-lines';

/** What a session file's head (and tail, for a title written late) says. */
export interface SessionHead {
  /** The agent's session id (from the file when it says, else its name). */
  readonly id: string | null;
  readonly folder: string | null;
  /** A title the agent wrote (Claude Code's summary or custom title), unmasked. */
  readonly title: string | null;
  /** The person's first message, unmasked. */
  readonly first: string | null;
}

/** Bytes read from a file's start: the session's header and its first message. */
export const HEAD_BYTES = 64 * 1024;
/** Bytes read from its end, for a title written later. */
const TAIL_BYTES = 16 * 1024;
/** A title or first message is kept this long (the list shows one line). */
const TEXT_MAX = 300;

async function readRange(path: string, size: number): Promise<{ head: Buffer; tail: Buffer | null }> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.allocUnsafe(Math.min(HEAD_BYTES, size));
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    let tail: Buffer | null = null;
    if (size > HEAD_BYTES) {
      tail = Buffer.allocUnsafe(Math.min(TAIL_BYTES, size - HEAD_BYTES));
      const got = await fh.read(tail, 0, tail.length, size - tail.length);
      tail = tail.subarray(0, got.bytesRead);
      const nl = tail.indexOf(10);
      tail = nl < 0 ? Buffer.alloc(0) : tail.subarray(nl + 1);
    }
    return { head: head.subarray(0, bytesRead), tail };
  } finally {
    await fh.close().catch(() => undefined);
  }
}

function json(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** One line, cut short. */
export function oneLine(text: string | null): string | null {
  if (text === null) return null;
  const line = text.replace(/\s+/g, ' ').trim();
  return line === '' ? null : line.length > TEXT_MAX ? `${line.slice(0, TEXT_MAX - 1)}…` : line;
}

/** The folder a line names (Claude Code's `cwd` on each line, Codex's `session_meta`, pi's header). */
function folderOf(agent: SessionAgent, o: Record<string, unknown>): string | null {
  if (agent === 'claude' || agent === 'pi') return str(o.cwd);
  if (agent === 'codex' && o.type === 'session_meta' && o.payload !== null && typeof o.payload === 'object') return str((o.payload as Record<string, unknown>).cwd);
  return null;
}

/** A line that may write a title (checked before it is parsed). */
const TITLE_HINT = /"(custom-title|ai-title|summary)"/;

/** A title a line writes: Claude Code's `summary`, `custom-title`, `ai-title`. */
function titleOf(agent: SessionAgent, o: Record<string, unknown>): string | null {
  if (agent !== 'claude') return null;
  if (o.type === 'custom-title') return str(o.customTitle) ?? str(o.title);
  if (o.type === 'ai-title') return str(o.aiTitle) ?? str(o.title);
  if (o.type === 'summary') return str(o.summary);
  return null;
}

/**
 * Reads the head of a session file (and its tail when longer), never the whole file: the id,
 * folder, title and first message, through the same line parser as the pane's Chat. Never
 * throws: an unreadable or hostile file gives what could be read.
 */
export async function readHead(agent: Exclude<SessionAgent, 'opencode'>, path: string, size: number, gemini?: GeminiProjects): Promise<SessionHead> {
  let range: { head: Buffer; tail: Buffer | null };
  try {
    range = await readRange(path, size);
  } catch {
    return { id: null, folder: null, title: null, first: null };
  }
  return parseHead(agent, range.head, range.tail, await gemini?.folderOf(path));
}

/** Buffers the index's sync reads share (one read at a time: the event loop's own thread). */
const shared = { head: Buffer.allocUnsafe(HEAD_BYTES), tail: Buffer.allocUnsafe(TAIL_BYTES) };

/**
 * `readHead` without a round trip through the thread pool per call: the store index reads every
 * head this way when it is built (a few files at a time between turns of the event loop), which
 * is what makes the first search over 10,000 sessions fast. Never throws.
 */
export function readHeadSync(agent: Exclude<SessionAgent, 'opencode'>, path: string, size: number, knownFolder: string | null): SessionHead {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { id: null, folder: null, title: null, first: null };
  }
  try {
    const got = readSync(fd, shared.head, 0, Math.min(HEAD_BYTES, size), 0);
    let tail: Buffer | null = null;
    if (size > HEAD_BYTES) {
      const want = Math.min(TAIL_BYTES, size - HEAD_BYTES);
      const n = readSync(fd, shared.tail, 0, want, size - want);
      tail = shared.tail.subarray(0, n);
      const nl = tail.indexOf(10);
      tail = nl < 0 ? Buffer.alloc(0) : tail.subarray(nl + 1);
    }
    return parseHead(agent, shared.head.subarray(0, got), tail, knownFolder);
  } catch {
    return { id: null, folder: null, title: null, first: null };
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Closed already.
    }
  }
}

/** Pure: what a file's first bytes (and last, when apart) say. Exported for the property tests. */
export function parseHead(agent: Exclude<SessionAgent, 'opencode'>, head: Buffer, tail: Buffer | null, knownFolder: string | null = null): SessionHead {
  const reader = readerOf(agent);
  const parse = reader?.kind === 'lines' ? reader.parse : null;
  let id: string | null = null;
  let folder: string | null = knownFolder;
  let title: string | null = null;
  let first: string | null = null;
  const { lines } = splitLines(head, 0);
  let at = 0;
  for (const l of lines) {
    at++;
    const o = json(l.text);
    if (!o) continue;
    folder ??= folderOf(agent, o);
    title = titleOf(agent, o) ?? title;
    if (agent === 'gemini' && id === null) id = str(o.sessionId);
    if (parse) {
      for (const e of parse(l.text, l.offset)) {
        if (e.kind === 'session') id ??= e.id;
        else if (e.kind === 'item' && e.item.kind === 'user' && typeof e.item.text === 'string') first ??= oneLine(e.item.text);
      }
    }
    // The rest of the head is the conversation: not read for the list.
    if (first !== null && id !== null && (folder !== null || agent === 'gemini')) break;
  }
  // Claude Code writes its titles later on: the rest of the head is looked at for them too (only lines that may hold one are parsed).
  if (agent === 'claude') for (const l of lines.slice(at)) if (TITLE_HINT.test(l.text)) title = titleOf(agent, json(l.text) ?? {}) ?? title;
  if (tail) for (const l of splitLines(tail, 0).lines) title = titleOf(agent, json(l.text) ?? {}) ?? title;
  return { id, folder, title: oneLine(title), first };
}

/**
 * Gemini CLI names a project folder by a short name (`projects.json` maps folder → name) or,
 * before 0.61, by the folder's SHA-256: the folder is read back from the map, or from the
 * `.project_root` file the CLI keeps in the project folder.
 */
export class GeminiProjects {
  #maps = new Map<string, { at: number; names: Map<string, string> }>();

  async folderOf(chatFile: string): Promise<string | null> {
    const project = dirname(dirname(chatFile));
    const root = dirname(dirname(project));
    const own = await readFile(join(project, '.project_root'), 'utf8').then((s) => s.trim() || null, () => null);
    if (own) return own;
    return (await this.#names(root)).get(basename(project)) ?? null;
  }

  async #names(root: string): Promise<Map<string, string>> {
    const hit = this.#maps.get(root);
    if (hit && Date.now() - hit.at < 2000) return hit.names;
    const names = new Map<string, string>();
    try {
      const projects = (JSON.parse(await readFile(join(root, 'projects.json'), 'utf8')) as { projects?: Record<string, unknown> }).projects ?? {};
      for (const [folder, name] of Object.entries(projects)) if (typeof name === 'string') names.set(name, folder);
    } catch {
      // No map: folders stay unknown.
    }
    this.#maps.set(root, { at: Date.now(), names });
    return names;
  }
}
