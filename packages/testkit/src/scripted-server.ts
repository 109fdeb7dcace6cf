import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What every scripted API records of a request, whatever its wire. */
export interface RecordedRequest {
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
  /** False when a scripted turn found its queue empty and the fallback answered. */
  scripted: boolean;
  /** Set when the client hung up before the answer ended (an interrupt). */
  aborted: boolean;
}

/** Decides one turn from the request it answers. */
export type Script<R, T> = (req: R) => T | Promise<T>;

/** What one provider's API adds to the shared server: its wire. */
export interface ScriptedWire<R extends RecordedRequest, T> {
  /** Names the API in errors: `scripted <name> API`. */
  name: string;
  /** The body of an error answer. */
  errorBody(status: number, message: string): string;
  /** The wire's own fields of a request (its kind, prompt, tool results, …). */
  decode(req: { method: string; pathname: string; body: unknown; headers: IncomingHttpHeaders }): Omit<R, keyof RecordedRequest>;
  /**
   * Where the turn for `req` comes from: a queue's name (its scripts in order, then its
   * fallback), a script of its own (a side call), or null (answered without a turn: probes,
   * unknown paths).
   */
  pick(req: R): string | Script<R, T> | null;
  /** The turn that answers a script that threw. */
  errorTurn(message: string): T;
  /** Writes the answer; `signal` aborts when the client hangs up. `raw` is the request body. */
  answer(res: ServerResponse, req: R, turn: T | null, signal: AbortSignal, raw: string): Promise<void>;
  /** One line naming a request, for the error of a wait that found none. */
  describe(req: R): string;
  /** Drops the wire's long fields of a request no longer kept whole ({@link ScriptedServerOptions.keepWhole}). */
  lighten?(req: R): void;
}

/** Options of {@link startScriptedServer}. */
export interface ScriptedServerOptions {
  /**
   * Requests kept whole: older ones keep what was decoded of them (their kind, prompt, tool
   * results), while their body, headers and the wire's long fields are dropped. Every request's
   * body holds the whole conversation so far, so a server that answers for hours would hold
   * them in memory as the square of its turns. Default: all.
   */
  keepWhole?: number;
}

/** The part of a scripted API that is the same for every wire. */
export interface ScriptedServer<R extends RecordedRequest, T> extends AsyncDisposable {
  readonly port: number;
  /** Every request so far, in order. */
  readonly requests: readonly R[];
  /** Errors thrown by scripts; each was answered with the wire's error turn. */
  readonly errors: readonly Error[];
  /** Appends scripts to a queue. */
  push(queue: string, scripts: ReadonlyArray<Script<R, T>>): void;
  setFallback(queue: string, script: Script<R, T>): void;
  /** Scripts of a queue not yet used. */
  pending(queue: string): number;
  /** Resolves with the first request, past or future, that matches. */
  waitForRequest(match: (req: R) => boolean, timeoutMs?: number): Promise<R>;
  close(): Promise<void>;
}

/**
 * Starts an HTTP server at 127.0.0.1, port 0, that records every request, answers each with the
 * next script of the queue the wire picks for it (then that queue's fallback), and reports
 * scripts that throw as an error turn instead of failing the agent's request.
 */
export async function startScriptedServer<R extends RecordedRequest, T>(wire: ScriptedWire<R, T>, fallbacks: Record<string, Script<R, T>>, opts: ScriptedServerOptions = {}): Promise<ScriptedServer<R, T>> {
  const keepWhole = opts.keepWhole ?? Infinity;
  const requests: R[] = [];
  const errors: Error[] = [];
  const queues = new Map<string, Array<Script<R, T>>>();
  const queue = (name: string) => queues.get(name) ?? queues.set(name, []).get(name)!;
  const fallback = new Map(Object.entries(fallbacks));
  const arrivals = new EventEmitter();
  arrivals.setMaxListeners(0);
  const label = `scripted ${wire.name} API`;

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(wire.errorBody(500, `${label}: ${String(err)}`));
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
      res.end(wire.errorBody(400, 'body is not JSON'));
      return;
    }
    const plumbing: RecordedRequest = { seq: requests.length, at: Date.now(), method, path, headers: req.headers, body, scripted: true, aborted: false };
    const record = { ...wire.decode({ method, pathname: path.split('?')[0] ?? '/', body, headers: req.headers }), ...plumbing } as R;
    requests.push(record);
    const older = requests[requests.length - 1 - keepWhole];
    if (older) {
      older.body = null;
      older.headers = {};
      wire.lighten?.(older);
    }
    arrivals.emit('request', record);

    const picked = wire.pick(record);
    let turn: T | null = null;
    if (picked !== null) {
      let script: Script<R, T> | undefined;
      if (typeof picked === 'string') {
        const queued = queue(picked).shift();
        record.scripted = queued !== undefined;
        script = queued ?? fallback.get(picked);
        if (!script) throw new Error(`no script and no fallback for the ${picked} queue`);
      } else script = picked;
      try {
        turn = await script(record);
      } catch (err) {
        const e = err instanceof Error ? err : new Error(String(err));
        errors.push(e);
        turn = wire.errorTurn(`Scripted API error: ${e.message}`);
      }
    }
    const hangup = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) {
        record.aborted = true;
        hangup.abort();
      }
    });
    await wire.answer(res, record, turn, hangup.signal, raw);
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
    port,
    requests,
    errors,
    push: (name, scripts) => void queue(name).push(...scripts),
    setFallback: (name, script) => void fallback.set(name, script),
    pending: (name) => queue(name).length,
    waitForRequest(match, timeoutMs = 15_000) {
      const seen = requests.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const onRequest = (r: R) => {
          if (!match(r)) return;
          clearTimeout(timer);
          arrivals.off('request', onRequest);
          resolve(r);
        };
        const timer = setTimeout(() => {
          arrivals.off('request', onRequest);
          const list = requests.map((r) => `#${r.seq} ${wire.describe(r)}`).join('\n');
          reject(new Error(`${label}: no matching request within ${timeoutMs} ms; seen:\n${list || '(none)'}`));
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
