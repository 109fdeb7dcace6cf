import { timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endianness } from 'node:os';
import { CALLS, peerUidIn, WIRE_HEADER, WIRE_VERSION, type AgentEventInput, type CallPath, type WireError, type WireResult } from '@collie/protocol';
import type { z } from 'zod';
import type { Calls, DurableAgent } from './agent';

/** Where to listen: a unix socket path (made 0600), or a TCP port on a host (loopback by default). */
export type ListenOn = { socket: string } | { port: number; host?: string };

export interface Listening {
  /** `unix:<path>` or `http://host:port`: what goes into `collie durable add`. */
  readonly address: string;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;
const PING_MS = 15_000;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', [WIRE_HEADER]: String(WIRE_VERSION), 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
const fail = (res: ServerResponse, status: number, code: WireError['error']['code'], message: string) =>
  send(res, status, { error: { code, message, wire: WIRE_VERSION } } satisfies WireError);

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error('the body is over 1 MiB');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** The uid owning the peer's end of a TCP connection (`peerUidIn` over this machine's tables), once per connection. */
const owners = new WeakMap<object, number | null>();
function ownerOf(socket: IncomingMessage['socket']): number | null {
  if (!owners.has(socket)) {
    const tables = ['/proc/net/tcp', '/proc/net/tcp6'].map((f) => {
      try {
        return readFileSync(f, 'utf8');
      } catch {
        return '';
      }
    });
    owners.set(socket, peerUidIn(tables, socket, endianness() === 'LE'));
  }
  return owners.get(socket)!;
}

/**
 * With a token, the token. Without one, a unix socket is kept to its user by its mode (0600);
 * a TCP port is reached from loopback by every local user, so only connections this agent's
 * own user opened (the bridge, run by the same user) are taken.
 */
function authorized(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return req.socket.remoteAddress === undefined || ownerOf(req.socket) === process.getuid?.();
  const got = Buffer.from(req.headers.authorization ?? '');
  const want = Buffer.from(`Bearer ${token}`);
  return got.length === want.length && timingSafeEqual(got, want);
}

/**
 * Serve wire v1 for `agent`. The bridge connects; this side answers. A request whose
 * `collie-wire` header is not 1 is refused with `wire_version` and our own version, so the
 * bridge can say which side to update.
 *
 * @example
 * const on = await serve(agent, { socket: '/run/user/1000/desk.sock' });
 * // collie durable add desk /run/user/1000/desk.sock
 */
export async function serve(agent: DurableAgent, where: ListenOn): Promise<Listening> {
  const streams = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    void handle(agent, req, res, streams).catch(() => {
      if (!res.headersSent) fail(res, 500, 'internal', 'durable agent: internal error');
      else res.destroy();
    });
  });
  if ('socket' in where) await rm(where.socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if ('socket' in where) server.listen(where.socket, () => resolve());
    else server.listen(where.port, where.host ?? '127.0.0.1', () => resolve());
  });
  if ('socket' in where) await chmod(where.socket, 0o600);
  const a = server.address();
  const address =
    'socket' in where ? where.socket : `http://${(a as AddressInfo).address.includes(':') ? `[${(a as AddressInfo).address}]` : (a as AddressInfo).address}:${(a as AddressInfo).port}`;
  return {
    address,
    close: async () => {
      for (const s of streams) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      if ('socket' in where) await rm(where.socket, { force: true });
    },
  };
}

async function handle(agent: DurableAgent, req: IncomingMessage, res: ServerResponse, streams: Set<ServerResponse>): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://agent');
  if (!authorized(req, agent.options.token)) {
    const why = agent.options.token === undefined ? 'only its own user may connect to a durable agent on a TCP port without a token' : 'a bearer token is required';
    return fail(res, 401, 'unauthorized', `durable agent: ${why}`);
  }
  const wire = req.headers[WIRE_HEADER];
  if (wire !== String(WIRE_VERSION)) {
    return fail(res, 400, 'wire_version', `durable agent: this agent speaks wire v${WIRE_VERSION}; the caller spoke ${wire === undefined ? 'no version' : `v${String(wire).slice(0, 10)}`}`);
  }
  if (req.method === 'GET') {
    switch (url.pathname) {
      case '/hello':
        return send(res, 200, agent.hello());
      case '/closed':
        return send(res, 200, await agent.closedPage(url.searchParams.get('cursor')));
      case '/conversation': {
        const read = await agent.read(url.searchParams.get('id') ?? '');
        return read ? send(res, 200, read) : fail(res, 404, 'not_found', 'durable agent: no such conversation');
      }
      case '/events':
        return stream(agent, url, res, streams);
    }
    return fail(res, 404, 'not_found', `durable agent: nothing at GET ${url.pathname.slice(0, 100)}`);
  }
  if (req.method !== 'POST' || !(url.pathname in CALLS)) return fail(res, 404, 'not_found', `durable agent: nothing at ${String(req.method)} ${url.pathname.slice(0, 100)}`);
  const path = url.pathname as CallPath;
  let body: unknown;
  try {
    body = await readBody(req);
  } catch (err) {
    return fail(res, 400, 'bad_request', `durable agent: ${err instanceof Error ? err.message : 'unreadable body'}`);
  }
  const called = await callWith(agent, path, body);
  if (typeof called === 'string') return fail(res, 400, 'bad_request', `durable agent: ${called}`);
  send(res, 200, called);
}

/** The call schemas, typed per path so a parsed body matches its path without a cast. */
const SCHEMAS: { [P in CallPath]: z.ZodType<Calls[P]> } = CALLS;

/** Parse a call's body with its path's schema, then run it; a string says what was wrong. */
async function callWith<P extends CallPath>(agent: DurableAgent, path: P, body: unknown): Promise<WireResult | string> {
  const parsed = SCHEMAS[path].safeParse(body);
  if (parsed.success) return agent.call(path, parsed.data);
  const issue = parsed.error.issues[0];
  return `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'does not match'}`;
}

function stream(agent: DurableAgent, url: URL, res: ServerResponse, streams: Set<ServerResponse>): void {
  res.writeHead(200, { 'content-type': 'application/x-ndjson', [WIRE_HEADER]: String(WIRE_VERSION), 'cache-control': 'no-store' });
  const write = (e: AgentEventInput) => res.write(`${JSON.stringify(e)}\n`);
  const since = Number(url.searchParams.get('since'));
  const resumable = url.searchParams.get('session') === agent.session && url.searchParams.has('since') && Number.isInteger(since);
  const missed = resumable ? agent.log.since(since) : null;
  if (missed) for (const e of missed) write(e);
  else write(agent.sync());
  const off = agent.log.subscribe(write);
  const ping = setInterval(() => res.write('{"type":"ping"}\n'), PING_MS);
  streams.add(res);
  res.on('close', () => {
    off();
    clearInterval(ping);
    streams.delete(res);
  });
}
