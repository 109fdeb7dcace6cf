import { startScriptedServer, type RecordedRequest } from '../../scripted-server';
import { decodeChatRequest, type DecodedChatRequest } from './request';
import { chatErrorBody, writeChatJson, writeChatStream, type ChatTurn } from './wire';

/** One request the API received, decoded. */
export interface ChatRequest extends DecodedChatRequest, RecordedRequest {}

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
  const models = opts.models ?? ['fake-coder'];
  const side: ChatScript = opts.side ?? (() => ({ text: 'Scripted title' }));
  const core = await startScriptedServer<ChatRequest, ChatTurn>(
    {
      name: 'chat',
      errorBody: (status, message) => chatErrorBody(status === 400 ? 'invalid_request_error' : status === 404 ? 'not_found_error' : 'api_error', message),
      decode: ({ method, body }) => {
        const decoded = decodeChatRequest(body);
        return method === 'POST' ? decoded : { ...decoded, kind: 'probe' };
      },
      pick: (req) => (req.kind === 'probe' || !completions(req) ? null : req.kind === 'main' ? 'main' : side),
      errorTurn: (text) => ({ text }),
      async answer(res, req, turn, signal, raw) {
        const pathname = req.path.split('?')[0] ?? '/';
        if (req.kind === 'probe') {
          res.writeHead(200, { 'content-type': 'application/json' });
          if (req.method === 'HEAD') res.end();
          else if (pathname.endsWith('/models')) res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'scripted' })) }));
          else res.end('{}');
          return;
        }
        if (turn === null) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(chatErrorBody('not_found_error', `scripted API has no ${pathname}`));
          return;
        }
        const ctx = { model: req.model ?? models[0] ?? 'fake-coder', promptTokens: Math.ceil(raw.length / 4), signal };
        await (req.stream ? writeChatStream(res, turn, ctx) : writeChatJson(res, turn, ctx));
      },
      describe: (r) => `${r.kind} ${JSON.stringify(r.prompt.slice(0, 60))} results=${r.toolResults.length}`,
    },
    { main: opts.fallback ?? (() => ({ text: 'Nothing more is scripted.' })) },
  );
  return {
    url: `http://127.0.0.1:${core.port}/v1`,
    port: core.port,
    requests: core.requests,
    errors: core.errors,
    script: (...scripts) => core.push('main', scripts),
    setFallback: (script) => core.setFallback('main', script),
    pending: () => core.pending('main'),
    waitForRequest: (match, timeoutMs) => core.waitForRequest(match, timeoutMs),
    close: () => core.close(),
    [Symbol.asyncDispose]: () => core.close(),
  };
}

const completions = (req: ChatRequest) => (req.path.split('?')[0] ?? '/').endsWith('/chat/completions');
