import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeRequest, type DecodedRequest } from './messages-request';
import { errorBody, writeJson, writeStream, type Turn } from './messages-wire';
import { sideReply } from './side-reply';

/** One request the API received, decoded. */
export interface ApiRequest extends DecodedRequest {
  /** 0, 1, 2 … in arrival order. */
  seq: number;
  /** `Date.now()` on arrival. */
  at: number;
  method: string;
  /** Path with query, e.g. `/v1/messages?beta=true`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or null. */
  body: unknown;
  /** The CLI's session (`x-claude-code-session-id`). */
  sessionId: string | undefined;
  /** False when a main or sub-agent turn found the queue empty and the fallback answered. */
  scripted: boolean;
  /** Set when the client hung up before the answer ended (an interrupt). */
  aborted: boolean;
}

/** Decides one turn from the request it answers: it sees the prompt and the tool results. */
export type TurnScript = (req: ApiRequest) => Turn | Promise<Turn>;

/** Turns for the main conversation, and for the sub-agents it starts. */
export interface Scenario {
  main: TurnScript[];
  subagent?: TurnScript[];
}

/** Options of {@link startMessagesApi}. */
export interface MessagesApiOptions {
  /** Answers main turns once the queue is empty. Default: a short plain reply. */
  fallback?: TurnScript;
  /** Answers sub-agent turns once their queue is empty. Default: a short plain reply. */
  subagentFallback?: TurnScript;
  /** Answers side calls (names, titles, labels, recaps). Default: {@link sideReply}. */
  side?: TurnScript;
}

/** A scripted Messages API on loopback. */
export interface MessagesApi extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`: give it as ANTHROPIC_BASE_URL. */
  readonly url: string;
  readonly port: number;
  /** Every request so far, in order. */
  readonly requests: readonly ApiRequest[];
  /** Queues turns: bare scripts answer the main conversation; scenarios may script sub-agents too. */
  script(...items: Array<TurnScript | Scenario>): void;
  /** Replaces the main-conversation fallback (a script that keeps going). */
  setFallback(script: TurnScript): void;
  /** Scripted main turns not yet used. */
  pending(): number;
  /** Resolves with the first request, past or future, that matches. */
  waitForRequest(match: (req: ApiRequest) => boolean, timeoutMs?: number): Promise<ApiRequest>;
  /** Errors thrown by scripts; each was answered with a text turn naming it. */
  readonly errors: readonly Error[];
  close(): Promise<void>;
}

/**
 * Starts a Messages API at 127.0.0.1, port 0. It answers `POST /v1/messages` (any query, e.g.
 * `?beta=true`) with SSE or JSON from the scripted turns, `/v1/messages/count_tokens` with a
 * count, and any other GET or HEAD with `{}`.
 *
 * @example
 * await using api = await startMessagesApi();
 * api.script(plainReply('Hello.'), bashPermission('ls'));
 * // … start the CLI with ANTHROPIC_BASE_URL=api.url …
 * const req = await api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'hi');
 */
export async function startMessagesApi(opts: MessagesApiOptions = {}): Promise<MessagesApi> {
  const requests: ApiRequest[] = [];
  const errors: Error[] = [];
  const main: TurnScript[] = [];
  const subagent: TurnScript[] = [];
  let fallback: TurnScript = opts.fallback ?? (() => ({ blocks: [{ type: 'text', text: 'Nothing more is scripted.' }] }));
  const subagentFallback: TurnScript = opts.subagentFallback ?? (() => ({ blocks: [{ type: 'text', text: 'Sub-agent done.' }] }));
  const side = opts.side ?? sideReply;
  const arrivals = new EventEmitter();
  arrivals.setMaxListeners(0);

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(errorBody('api_error', `scripted API: ${String(err)}`));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const raw = await readBody(req);
    const path = req.url ?? '/';
    const pathname = path.split('?')[0] ?? '/';
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(errorBody('invalid_request_error', 'body is not JSON'));
      return;
    }
    const decoded = decodeRequest(body);
    const record: ApiRequest = {
      ...decoded,
      seq: requests.length,
      at: Date.now(),
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
      sessionId: header(req.headers['x-claude-code-session-id']),
      scripted: true,
      aborted: false,
    };
    if (req.method !== 'POST') record.kind = 'probe';
    else if (pathname.endsWith('/count_tokens')) record.kind = 'count_tokens';
    requests.push(record);
    arrivals.emit('request', record);

    if (record.kind === 'probe') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.method === 'HEAD' ? undefined : '{}');
      return;
    }
    if (record.kind === 'count_tokens') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }));
      return;
    }
    if (pathname !== '/v1/messages') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(errorBody('not_found_error', `scripted API has no ${pathname}`));
      return;
    }

    let script: TurnScript = side;
    if (record.kind === 'main' || record.kind === 'subagent') {
      const queued = (record.kind === 'main' ? main : subagent).shift();
      record.scripted = queued !== undefined;
      script = queued ?? (record.kind === 'main' ? fallback : subagentFallback);
    }

    let turn: Turn;
    try {
      turn = await script(record);
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      errors.push(e);
      turn = { blocks: [{ type: 'text', text: `Scripted API error: ${e.message}` }] };
    }

    const hangup = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) {
        record.aborted = true;
        hangup.abort();
      }
    });
    const ctx = {
      model: decoded.model ?? 'claude-scripted',
      wantsSafeguards: decoded.wantsSafeguards,
      inputTokens: Math.ceil(raw.length / 4),
      signal: hangup.signal,
    };
    await (decoded.stream ? writeStream(res, turn, ctx) : writeJson(res, turn, ctx));
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
      for (const item of items) {
        if (typeof item === 'function') main.push(item);
        else {
          main.push(...item.main);
          subagent.push(...(item.subagent ?? []));
        }
      }
    },
    setFallback(script) {
      fallback = script;
    },
    pending: () => main.length,
    waitForRequest(match, timeoutMs = 15_000) {
      const seen = requests.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const onRequest = (r: ApiRequest) => {
          if (!match(r)) return;
          clearTimeout(timer);
          arrivals.off('request', onRequest);
          resolve(r);
        };
        const timer = setTimeout(() => {
          arrivals.off('request', onRequest);
          const seenList = requests.map((r) => `#${r.seq} ${r.kind} ${JSON.stringify(r.prompt.slice(0, 60))}`).join('\n');
          reject(new Error(`scripted API: no matching request within ${timeoutMs} ms; seen:\n${seenList || '(none)'}`));
        }, timeoutMs);
        arrivals.on('request', onRequest);
      });
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
