import type { ServerResponse } from 'node:http';
import { startScriptedServer, type RecordedRequest } from '../scripted-server';

/**
 * What a scripted model answers to one turn, in words every agent's wire can carry: text
 * (streamed over `durationMs`, so the agent shows a running turn all that time) and at most
 * one call of the agent's own shell tool.
 */
export interface AgentTurn {
  text?: string;
  /** A call of the agent's shell tool; `reason` is the justification some agents show. */
  shell?: { command: string; reason?: string };
  /**
   * A call of any other tool of the agent by its own name and arguments (Gemini CLI's
   * `write_file` or `ask_user`, Codex's `request_user_input`): how a script makes the agent
   * draw that tool's dialog.
   */
  tool?: { name: string; args: Record<string, unknown> };
  /** Spread the answer over this long. Default: at once. */
  durationMs?: number;
  /** Response headers the wire adds (Codex reads its rate limits from `x-codex-primary-*`). */
  headers?: Record<string, string>;
}

/** What a wire makes of one request: which queue answers it, and the conversation it carries. */
export interface DecodedAgentRequest {
  /** `main`: a conversation turn (scripted); `side`: a title, router or check call; `probe`: a GET. */
  kind: 'main' | 'side' | 'probe';
  /** The last thing the user typed (the last user text in the conversation), or ''. */
  prompt: string;
  /** Every user text in the conversation, oldest first. */
  userMessages: string[];
  /** Outputs of the shell calls the conversation carries, oldest first. */
  toolOutputs: string[];
  /** The model the request names, or ''. */
  model: string;
}

/** One request the API received. */
export interface AgentRequest extends DecodedAgentRequest, RecordedRequest {}

/** Decides one turn from the request it answers. */
export type AgentTurnScript = (req: AgentRequest) => AgentTurn | Promise<AgentTurn>;

/** The provider's wire: how requests read and how a turn is written. */
export interface AgentWire {
  /** The provider's name, for errors. */
  name: string;
  decode(method: string, pathname: string, body: unknown): DecodedAgentRequest;
  /** Writes the answer to `req`: `turn` for main turns, null for side calls and probes. */
  answer(res: ServerResponse, req: AgentRequest, turn: AgentTurn | null, signal: AbortSignal): Promise<void>;
  /** The body of an error answer. */
  error(status: number, message: string): string;
}

/** A scripted model API on loopback, for one agent's wire. */
export interface AgentApi extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Every request so far, in order. */
  readonly requests: readonly AgentRequest[];
  /** Errors thrown by scripts; each was answered with a text turn naming it. */
  readonly errors: readonly Error[];
  /** Queues turns for the main conversation (a list stands for its turns in order). */
  script(...items: Array<AgentTurnScript | readonly AgentTurnScript[]>): void;
  /** Replaces the main-conversation fallback (a script that keeps going). */
  setFallback(script: AgentTurnScript): void;
  /** Scripted main turns not yet used. */
  pending(): number;
  /** Resolves with the first request, past or future, that matches. */
  waitForRequest(match: (req: AgentRequest) => boolean, timeoutMs?: number): Promise<AgentRequest>;
  close(): Promise<void>;
}

/**
 * Starts a scripted API at 127.0.0.1, port 0, speaking `wire`. Main turns come from the queue
 * (then the fallback); side calls and probes are the wire's own business.
 *
 * @example
 * await using api = await startScriptedApi(responsesWire);
 * api.script(() => ({ text: 'Hello.' }));
 */
export async function startScriptedApi(wire: AgentWire, opts: { fallback?: AgentTurnScript } = {}): Promise<AgentApi> {
  const core = await startScriptedServer<AgentRequest, AgentTurn>(
    {
      name: wire.name,
      errorBody: (status, message) => wire.error(status, message),
      decode: ({ method, pathname, body }) => wire.decode(method, pathname, body),
      pick: (req) => (req.kind === 'main' ? 'main' : null),
      errorTurn: (text) => ({ text }),
      answer: (res, req, turn, signal) => wire.answer(res, req, turn, signal),
      describe: (r) => `${r.kind} ${r.method} ${r.path} ${JSON.stringify(r.prompt.slice(0, 60))}`,
    },
    { main: opts.fallback ?? (() => ({ text: 'Nothing more is scripted.' })) },
  );
  return {
    url: `http://127.0.0.1:${core.port}`,
    port: core.port,
    requests: core.requests,
    errors: core.errors,
    script(...items) {
      for (const item of items) core.push('main', typeof item === 'function' ? [item] : item);
    },
    setFallback: (script) => core.setFallback('main', script),
    pending: () => core.pending('main'),
    waitForRequest: (match, timeoutMs) => core.waitForRequest(match, timeoutMs),
    close: () => core.close(),
    [Symbol.asyncDispose]: () => core.close(),
  };
}

/** Pieces of `text` a few words long, as a model streams them. */
export function textPieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/gu) ?? [];
}

/**
 * Runs `steps` spread evenly over `durationMs` (at once when 0); stops early when `signal`
 * aborts (the agent hung up: an interrupt).
 */
export async function paced(steps: ReadonlyArray<() => void>, durationMs: number, signal: AbortSignal): Promise<void> {
  const gap = steps.length > 1 ? durationMs / (steps.length - 1) : durationMs;
  for (const [i, step] of steps.entries()) {
    if (signal.aborted) return;
    if (i > 0 && gap > 0) await new Promise((r) => setTimeout(r, gap));
    if (signal.aborted) return;
    step();
  }
}
