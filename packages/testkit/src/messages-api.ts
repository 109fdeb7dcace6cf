import { startScriptedServer } from './scripted-server';
import { decodeRequest, type ApiRequest } from './messages-request';
import { errorBody, writeJson, writeStream, type Turn } from './messages-wire';
import { sideReply } from './side-reply';

export type { ApiRequest } from './messages-request';

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
  /** Requests kept whole; older ones lose their body and every user message but the last (the scripted server's keepWhole). Default: all. */
  keepWhole?: number;
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
  const side = opts.side ?? sideReply;
  const core = await startScriptedServer<ApiRequest, Turn>(
    {
      name: 'Messages',
      errorBody: (status, message) => errorBody(status === 400 ? 'invalid_request_error' : status === 404 ? 'not_found_error' : 'api_error', message),
      decode: ({ method, pathname, body, headers }) => {
        const decoded = decodeRequest(body);
        const kind = method !== 'POST' ? 'probe' : pathname.endsWith('/count_tokens') ? 'count_tokens' : decoded.kind;
        return { ...decoded, kind, sessionId: header(headers['x-claude-code-session-id']) };
      },
      pick: (req) => {
        if (req.kind === 'probe' || req.kind === 'count_tokens' || (req.path.split('?')[0] ?? '/') !== '/v1/messages') return null;
        return req.kind === 'main' || req.kind === 'subagent' ? req.kind : side;
      },
      errorTurn: (text) => ({ blocks: [{ type: 'text', text }] }),
      async answer(res, req, turn, signal, raw) {
        if (req.kind === 'probe') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(req.method === 'HEAD' ? undefined : '{}');
          return;
        }
        if (req.kind === 'count_tokens') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }));
          return;
        }
        if (turn === null) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(errorBody('not_found_error', `scripted API has no ${req.path.split('?')[0] ?? '/'}`));
          return;
        }
        if (turn.error) {
          res.writeHead(turn.error.status, { 'content-type': 'application/json', 'request-id': `req_scripted_error`, ...turn.error.headers });
          res.end(errorBody(turn.error.type, turn.error.message));
          return;
        }
        const ctx = { model: req.model ?? 'claude-scripted', wantsSafeguards: req.wantsSafeguards, inputTokens: Math.ceil(raw.length / 4), signal };
        await (req.stream ? writeStream(res, turn, ctx) : writeJson(res, turn, ctx));
      },
      describe: (r) => `${r.kind} ${JSON.stringify(r.prompt.slice(0, 60))}`,
      lighten: (r) => void (r.userMessages = r.userMessages.slice(-1)),
    },
    {
      main: opts.fallback ?? (() => ({ blocks: [{ type: 'text', text: 'Nothing more is scripted.' }] })),
      subagent: opts.subagentFallback ?? (() => ({ blocks: [{ type: 'text', text: 'Sub-agent done.' }] })),
    },
    { keepWhole: opts.keepWhole },
  );
  return {
    url: `http://127.0.0.1:${core.port}`,
    port: core.port,
    requests: core.requests,
    errors: core.errors,
    script(...items) {
      for (const item of items) {
        if (typeof item === 'function') core.push('main', [item]);
        else {
          core.push('main', item.main);
          core.push('subagent', item.subagent ?? []);
        }
      }
    },
    setFallback: (script) => core.setFallback('main', script),
    pending: () => core.pending('main'),
    waitForRequest: (match, timeoutMs) => core.waitForRequest(match, timeoutMs),
    close: () => core.close(),
    [Symbol.asyncDispose]: () => core.close(),
  };
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
