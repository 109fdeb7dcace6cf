import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeChatRequest, type DecodedChatRequest } from './request';
import { chatErrorBody, writeChatJson, writeChatStream, type ChatTurn } from './wire';

/** One request the API received, decoded. */
export interface ChatRequest extends DecodedChatRequest {
  /** 0, 1, 2 … in arrival order. */
  seq: number;
  /** `Date.now()` on arrival. */
  at: number;
  method: string;
  /** Path with query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or null. */
  body: unknown;
  /** False when a main turn found the queue empty and the fallback answered. */
  scripted: boolean;
  /** Set when the client hung up before the answer ended (an interrupt). */
  aborted: boolean;
}

/** Decides one turn from the request it answers: it sees the prompt and the tool results. */
export type ChatScript = (req: ChatRequest) => ChatTurn | Promise<ChatTurn>;

/** Options of {@link startChatApi}. */
export interface ChatApiOptions {
  /** Model ids listed by `GET …/models`. Default `['fake-coder']`. */
  models?: string[];
  /** Answers main turns once the queue is empty. Default: a short plain reply. */
  fallback?: ChatScript;
  /** Answers side calls (no tools offered, e.g. a title). Default: `Scripted title`. */
  side?: ChatScript;
}

/** A scripted OpenAI chat-completions API on loopback. */
export interface ChatApi extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/v1`: give it as the provider's base URL. */
  readonly url: string;
  readonly port: number;
  /** Every request so far, in order. */
  readonly requests: readonly ChatRequest[];
  /** Queues scripts for the next main turns, in order. */
  script(...scripts: ChatScript[]): void;
  /** Replaces the main-turn fallback. */
  setFallback(script: ChatScript): void;
  /** Scripted main turns not yet used. */
  pending(): number;
  /** Resolves with the first request, past or future, that matches. */
  waitForRequest(match: (req: ChatRequest) => boolean, timeoutMs?: number): Promise<ChatRequest>;
  /** Errors thrown by scripts; each was answered with a text turn naming it. */
  readonly errors: readonly Error[];
  close(): Promise<void>;
}

/**
 * Starts an OpenAI-compatible chat-completions API at 127.0.0.1, port 0. It answers
 * `POST …/chat/completions` with SSE or JSON from the scripted turns, `GET …/models` with the
 * model list, and any other GET or HEAD with `{}`.
 *
 * @example
 * await using api = await startChatApi();
 * api.script(chatReply('Hello.'));
 * // … start the agent with its provider's baseURL = api.url …
 * const req = await api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'hi');
 */
export async function startChatApi(opts: ChatApiOptions = {}): Promise<ChatApi> {
  const requests: ChatRequest[] = [];
  const errors: Error[] = [];
  const queue: ChatScript[] = [];
  const models = opts.models ?? ['fake-coder'];
  let fallback: ChatScript = opts.fallback ?? (() => ({ text: 'Nothing more is scripted.' }));
  const side: ChatScript = opts.side ?? (() => ({ text: 'Scripted title' }));
  const arrivals = new EventEmitter();
  arrivals.setMaxListeners(0);

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(chatErrorBody('api_error', `scripted API: ${String(err)}`));
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
      res.end(chatErrorBody('invalid_request_error', 'body is not JSON'));
      return;
    }
    const record: ChatRequest = {
      ...decodeChatRequest(body),
      seq: requests.length,
      at: Date.now(),
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
      scripted: true,
      aborted: false,
    };
    if (req.method !== 'POST') record.kind = 'probe';
    requests.push(record);
    arrivals.emit('request', record);

    if (record.kind === 'probe') {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.method === 'HEAD') res.end();
      else if (pathname.endsWith('/models')) res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'scripted' })) }));
      else res.end('{}');
      return;
    }
    if (!pathname.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(chatErrorBody('not_found_error', `scripted API has no ${pathname}`));
      return;
    }

    let script = side;
    if (record.kind === 'main') {
      const queued = queue.shift();
      record.scripted = queued !== undefined;
      script = queued ?? fallback;
    }
    let turn: ChatTurn;
    try {
      turn = await script(record);
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      errors.push(e);
      turn = { text: `Scripted API error: ${e.message}` };
    }

    const hangup = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) {
        record.aborted = true;
        hangup.abort();
      }
    });
    const ctx = { model: record.model ?? models[0] ?? 'fake-coder', promptTokens: Math.ceil(raw.length / 4), signal: hangup.signal };
    await (record.stream ? writeChatStream(res, turn, ctx) : writeChatJson(res, turn, ctx));
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
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    errors,
    script: (...scripts) => void queue.push(...scripts),
    setFallback(script) {
      fallback = script;
    },
    pending: () => queue.length,
    waitForRequest(match, timeoutMs = 15_000) {
      const seen = requests.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const onRequest = (r: ChatRequest) => {
          if (!match(r)) return;
          clearTimeout(timer);
          arrivals.off('request', onRequest);
          resolve(r);
        };
        const timer = setTimeout(() => {
          arrivals.off('request', onRequest);
          const seenList = requests.map((r) => `#${r.seq} ${r.kind} ${JSON.stringify(r.prompt.slice(0, 60))} results=${r.toolResults.length}`).join('\n');
          reject(new Error(`scripted chat API: no matching request within ${timeoutMs} ms; seen:\n${seenList || '(none)'}`));
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
