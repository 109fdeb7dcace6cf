import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
export interface AgentRequest extends DecodedAgentRequest {
  /** 0, 1, 2 … in arrival order. */
  seq: number;
  /** `Date.now()` on arrival. */
  at: number;
  method: string;
  /** Path with query. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or null. */
  body: unknown;
  /** False when a main turn found the queue empty and the fallback answered. */
  scripted: boolean;
  /** Set when the client hung up before the answer ended (an interrupt). */
  aborted: boolean;
}

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
  const requests: AgentRequest[] = [];
  const errors: Error[] = [];
  const main: AgentTurnScript[] = [];
  let fallback: AgentTurnScript = opts.fallback ?? (() => ({ text: 'Nothing more is scripted.' }));
  const arrivals = new EventEmitter();
  arrivals.setMaxListeners(0);

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(wire.error(500, `scripted ${wire.name} API: ${String(err)}`));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const raw = await readBody(req);
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(wire.error(400, 'body is not JSON'));
      return;
    }
    const record: AgentRequest = {
      ...wire.decode(method, path.split('?')[0] ?? '/', body),
      seq: requests.length,
      at: Date.now(),
      method,
      path,
      headers: req.headers,
      body,
      scripted: true,
      aborted: false,
    };
    requests.push(record);
    arrivals.emit('request', record);

    let turn: AgentTurn | null = null;
    if (record.kind === 'main') {
      const queued = main.shift();
      record.scripted = queued !== undefined;
      try {
        turn = await (queued ?? fallback)(record);
      } catch (err) {
        const e = err instanceof Error ? err : new Error(String(err));
        errors.push(e);
        turn = { text: `Scripted API error: ${e.message}` };
      }
    }
    const hangup = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) {
        record.aborted = true;
        hangup.abort();
      }
    });
    await wire.answer(res, record, turn, hangup.signal);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    errors,
    script(...items) {
      for (const item of items) main.push(...(typeof item === 'function' ? [item] : item));
    },
    setFallback(script) {
      fallback = script;
    },
    pending: () => main.length,
    waitForRequest(match, timeoutMs = 15_000) {
      const seen = requests.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const onRequest = (r: AgentRequest) => {
          if (!match(r)) return;
          clearTimeout(timer);
          arrivals.off('request', onRequest);
          resolve(r);
        };
        const timer = setTimeout(() => {
          arrivals.off('request', onRequest);
          const list = requests.map((r) => `#${r.seq} ${r.kind} ${r.method} ${r.path} ${JSON.stringify(r.prompt.slice(0, 60))}`).join('\n');
          reject(new Error(`scripted ${wire.name} API: no matching request within ${timeoutMs} ms; seen:\n${list || '(none)'}`));
        }, timeoutMs);
        arrivals.on('request', onRequest);
      });
    },
    close,
    [Symbol.asyncDispose]: close,
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

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}
