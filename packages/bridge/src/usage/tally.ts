import type { Harness, PaneUsage, UsageLimit } from '@collie/protocol';
import { knownWindow } from './windows';

/**
 * A session's usage, added up from the lines of the agent's own transcript as they are read:
 * the model and context of the latest turn, tokens summed over turns (a turn the agent writes
 * more than once, as Claude Code does per content block and Gemini CLI as its tools settle,
 * counts once, in its latest version), the cost where the agent records one, the limit where it
 * records one. Nothing is estimated.
 */
export interface UsageTally {
  /** Reads one line; true when the figures changed. */
  line(text: string): boolean;
  /** The figures so far, or null when the transcript recorded none yet. */
  usage(): PaneUsage | null;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
/** A count as recorded: a finite number, never below 0 (anything else counts as 0). */
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
/** A token count for the schema: a whole number. */
const whole = (v: number | undefined): number | undefined => (v === undefined ? undefined : Math.min(Number.MAX_SAFE_INTEGER, Math.round(v)));
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const epoch = (v: unknown): number => {
  const ms = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(ms) ? ms : 0;
};

/** One turn's figures, kept by the turn's id so a turn written again replaces itself. */
interface Turn {
  tokens: number;
  cost?: number;
}

/** What every agent's tally keeps: per-turn figures and the latest turn's facts. */
class Figures {
  model: string | undefined;
  context: number | undefined;
  window: number | undefined;
  windowFrom: 'transcript' | 'table' | undefined;
  /** The agent's own running total, where it keeps one (Codex); else the turns are summed. */
  total: number | undefined;
  limit: UsageLimit | undefined;
  at = 0;
  readonly turns = new Map<string, Turn>();
  #version = 0;
  #seen = -1;

  touch(at: number): void {
    this.#version++;
    if (at > this.at) this.at = at;
  }

  /** True once per change: the figures differ from those last handed out. */
  changed(): boolean {
    if (this.#seen === this.#version) return false;
    this.#seen = this.#version;
    return true;
  }

  usage(): PaneUsage | null {
    if (this.model === undefined && this.context === undefined && this.total === undefined && this.turns.size === 0 && !this.limit) return null;
    let tokens = 0;
    let cost: number | undefined;
    for (const t of this.turns.values()) {
      tokens += t.tokens;
      if (t.cost !== undefined) cost = (cost ?? 0) + t.cost;
    }
    const window = this.window ?? (this.model !== undefined ? knownWindow(this.model) : undefined);
    const from = this.window !== undefined ? this.windowFrom : window !== undefined ? 'table' : undefined;
    return {
      ...(this.model !== undefined ? { model: this.model } : {}),
      ...(this.context !== undefined ? { contextTokens: whole(this.context) } : {}),
      ...(window !== undefined ? { contextWindow: window, windowFrom: from } : {}),
      ...(this.total !== undefined ? { sessionTokens: whole(this.total) } : this.turns.size > 0 ? { sessionTokens: whole(tokens) } : {}),
      ...(cost !== undefined ? { costUsd: cost } : {}),
      ...(this.limit ? { limit: this.limit } : {}),
      source: 'transcript',
      at: this.at,
    };
  }
}

function parse(text: string): Obj | null {
  try {
    return obj(JSON.parse(text));
  } catch {
    return null;
  }
}

/** Claude Code: `assistant` lines with `message.model` and `message.usage`, one per content block of a message. */
function claudeLine(f: Figures, text: string): void {
  if (!text.includes('"usage"')) return;
  const line = parse(text);
  const message = obj(line?.message);
  const usage = obj(message?.usage);
  const model = str(message?.model);
  if (line?.type !== 'assistant' || !usage || !model || model === '<synthetic>') return;
  const context = num(usage.input_tokens) + num(usage.cache_creation_input_tokens) + num(usage.cache_read_input_tokens);
  f.model = model;
  f.context = context;
  f.turns.set(str(message?.id) ?? str(line.uuid) ?? String(f.turns.size), { tokens: context + num(usage.output_tokens) });
  f.touch(epoch(line.timestamp));
}

/** Codex: `turn_context` names the model; `token_count` events carry totals, the window and `rate_limits`. */
function codexLine(f: Figures, text: string): void {
  if (!text.includes('"token_count"') && !text.includes('"turn_context"')) return;
  const line = parse(text);
  const payload = obj(line?.payload);
  if (!line || !payload) return;
  const at = epoch(line.timestamp);
  if (line.type === 'turn_context') {
    const model = str(payload.model);
    if (model && model !== f.model) {
      f.model = model;
      f.touch(at);
    }
    return;
  }
  if (line.type !== 'event_msg' || payload.type !== 'token_count') return;
  const info = obj(payload.info);
  if (info) {
    const last = obj(info.last_token_usage);
    const total = obj(info.total_token_usage);
    if (last) f.context = int(last.input_tokens);
    if (total) f.total = int(total.total_tokens);
    const window = int(info.model_context_window);
    if (window) {
      f.window = window;
      f.windowFrom = 'transcript';
    }
  }
  const limit = codexLimit(obj(payload.rate_limits), at);
  if (limit) f.limit = limit;
  f.touch(at);
}

/** The fuller of Codex's windows (primary, secondary): reached at 100 %. */
function codexLimit(limits: Obj | null, at: number): UsageLimit | undefined {
  if (!limits) return undefined;
  let best: Obj | null = null;
  for (const w of [obj(limits.primary), obj(limits.secondary)]) if (w && typeof w.used_percent === 'number' && (!best || num(w.used_percent) > num(best.used_percent))) best = w;
  if (!best) return undefined;
  const used = Math.min(1, Math.max(0, num(best.used_percent) / 100));
  const minutes = int(best.window_minutes);
  const resetsAt = typeof best.resets_at === 'number' ? best.resets_at * 1000 : typeof best.resets_in_seconds === 'number' && at > 0 ? at + best.resets_in_seconds * 1000 : undefined;
  return {
    state: used >= 1 ? 'reached' : 'ok',
    usedShare: used,
    ...(minutes ? { windowMinutes: minutes } : {}),
    ...(resetsAt !== undefined ? { resetsAt: new Date(resetsAt).toISOString() } : {}),
    source: 'transcript',
  };
}

/** Gemini CLI: `gemini` message records with `model` and `tokens` (written again under the same id as tools settle). */
function geminiLine(f: Figures, text: string): void {
  if (!text.includes('"tokens"')) return;
  const line = parse(text);
  const tokens = obj(line?.tokens);
  if (!line || line.type !== 'gemini' || !tokens || typeof line.id !== 'string') return;
  const model = str(line.model);
  if (model) f.model = model;
  f.context = int(tokens.input);
  f.turns.set(line.id, { tokens: num(tokens.total) });
  f.touch(epoch(line.timestamp));
}

/** pi: assistant `message` entries with `model` and `usage` (tokens and `cost.total`). */
function piLine(f: Figures, text: string): void {
  if (!text.includes('"usage"')) return;
  const line = parse(text);
  const message = obj(line?.message);
  const usage = obj(message?.usage);
  if (!line || line.type !== 'message' || message?.role !== 'assistant' || !usage) return;
  const model = str(message.model);
  if (model) f.model = model;
  f.context = num(usage.input) + num(usage.cacheRead) + num(usage.cacheWrite);
  const cost = obj(usage.cost);
  f.turns.set(str(line.id) ?? String(f.turns.size), { tokens: num(usage.totalTokens), ...(cost && typeof cost.total === 'number' ? { cost: cost.total } : {}) });
  f.touch(epoch(line.timestamp));
}

const LINES: Partial<Record<Harness, (f: Figures, text: string) => void>> = { claude: claudeLine, codex: codexLine, gemini: geminiLine, pi: piLine };

/** A tally for an agent whose transcript is a file of lines, or null. */
export function lineTally(harness: Harness): UsageTally | null {
  const read = LINES[harness];
  if (!read) return null;
  const f = new Figures();
  return {
    line(text) {
      read(f, text);
      return f.changed();
    },
    usage: () => f.usage(),
  };
}

/**
 * OpenCode: the `data` of the session's assistant messages (`modelID`, `tokens` with `input`,
 * `output`, `reasoning`, `cache.read`/`cache.write`, `cost`), oldest first.
 */
export function opencodeUsage(messages: readonly string[]): PaneUsage | null {
  const f = new Figures();
  messages.forEach((data, i) => {
    const m = parse(data);
    const tokens = obj(m?.tokens);
    if (!m || m.role !== 'assistant' || !tokens) return;
    const cache = obj(tokens.cache);
    const input = num(tokens.input) + num(cache?.read) + num(cache?.write);
    const all = input + num(tokens.output) + num(tokens.reasoning);
    if (all === 0) return; // a message still running: OpenCode writes its tokens when the step ends
    const model = str(m.modelID);
    if (model) f.model = model;
    f.context = input;
    f.turns.set(String(i), { tokens: all, ...(typeof m.cost === 'number' ? { cost: m.cost } : {}) });
    f.touch(num(obj(m.time)?.completed) || num(obj(m.time)?.created));
  });
  return f.usage();
}
