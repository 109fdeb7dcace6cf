import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { WIRE_HEADER, WIRE_VERSION, type SourceTarget } from '@collie/protocol';

export type Target = Extract<SourceTarget, { ok: true }>;

/** A wire failure, with what the bridge was doing. `status` is set when the agent answered. */
export class WireFailure extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

const MAX_ANSWER = 8 * 1024 * 1024;

/** Open one request to the agent: a unix socket, or http(s) with its bearer token. */
function open(t: Target, method: 'GET' | 'POST', path: string, body: string | null, timeoutMs: number): Promise<IncomingMessage> {
  const headers: Record<string, string> = { [WIRE_HEADER]: String(WIRE_VERSION), accept: 'application/json' };
  if (body !== null) headers['content-type'] = 'application/json';
  if (t.kind === 'url' && t.token) headers.authorization = `Bearer ${t.token}`;
  return new Promise((resolve, reject) => {
    const req =
      t.kind === 'socket'
        ? httpRequest({ socketPath: t.path, path, method, headers })
        : (t.tls ? httpsRequest : httpRequest)(new URL(t.url + path), { method, headers });
    req.setTimeout(timeoutMs, () => req.destroy(new WireFailure(`no answer in ${timeoutMs} ms`)));
    req.once('response', resolve);
    req.once('error', (err) => reject(err instanceof WireFailure ? err : new WireFailure(err.message)));
    req.end(body ?? undefined);
  });
}

/** One request, its JSON answer. A non-2xx answer is a WireFailure carrying the status and body. */
export async function wireCall(t: Target, method: 'GET' | 'POST', path: string, body: unknown, timeoutMs: number): Promise<unknown> {
  const res = await open(t, method, path, body === undefined ? null : JSON.stringify(body), timeoutMs);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_ANSWER) {
      res.destroy();
      throw new WireFailure('the answer is over 8 MiB');
    }
    chunks.push(chunk);
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new WireFailure(`the answer to ${method} ${path} is not JSON`, res.statusCode ?? null);
  }
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 299) throw new WireFailure(`${method} ${path} answered ${status}`, status, json);
  return json;
}

/** The event stream: resolves once the agent answered with 200; chunks go to `onData`. */
export async function wireStream(t: Target, path: string, onData: (b: Buffer) => void, timeoutMs: number): Promise<IncomingMessage> {
  const res = await open(t, 'GET', path, null, timeoutMs);
  if (res.statusCode !== 200) {
    res.resume();
    throw new WireFailure(`GET ${path} answered ${res.statusCode ?? 0}`, res.statusCode ?? null);
  }
  res.socket.setTimeout(0);
  res.on('data', onData);
  return res;
}
