/**
 * The crew listener: HTTPS on the one address `--listen` named (never the phone's port), with
 * this machine's certificate. Every route but the join is signed by a key this machine knows;
 * the join is signed by the key it presents and carries an invite.
 */
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { CREW_MAX_FRAME, CrewErrorBody, SIGNATURE_HEADER, parseListen, type CrewErrorCode } from '@collie/protocol';
import type { Identity } from './identity';
import type { KeyStanding, Receiver, ReplayMemory } from './sign';
import { verifyRequest } from './sign';
import { closingServer } from '../config/closing-server';

/** A request body larger than this is refused `too_large` (a join is under 4 KiB). */
const MAX_BODY = 64 * 1024;

const STATUS: Record<CrewErrorCode, number> = {
  malformed: 401,
  stale: 401,
  unknown_key: 401,
  bad_signature: 401,
  unbound: 401,
  misdirected: 401,
  replay: 401,
  removed: 403,
  bad_request: 400,
  not_found: 404,
  invite_unknown: 403,
  invite_used: 409,
  invite_expired: 410,
  name_taken: 409,
  not_lead: 404,
  too_large: 413,
  internal: 500,
};

export class CrewError extends Error {
  constructor(
    readonly code: CrewErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface Verified {
  name: string;
  keyId: string;
}

export interface ListenerRoutes {
  /** What this machine knows of a key (lead: its members; member: its lead). */
  standing(keyId: string): KeyStanding;
  replay: ReplayMemory;
  /** This machine as the receiver: its key id, and whether it takes a v1 (unbound) signature. */
  receiver(): Receiver;
  onAccepted(): void;
  /** A signed request refused (for the audit log). */
  onRefused?(r: { code: CrewErrorCode; path: string; from: string | null }): void;
  /** Signed routes: `(method, path, body, who)` → JSON, or a CrewError. */
  signed(method: string, path: string, body: string, who: Verified): Promise<unknown>;
  /** The join: unsigned by a known key; checks its own. */
  join(body: string, header: string | undefined): Promise<unknown>;
  /** A verified stream upgrade (lead only); false refuses it as not found. */
  stream(who: Verified, ws: WebSocket): boolean;
  wantsStream(): boolean;
  now(): number;
}

export interface CrewListener {
  address: string;
  port: number;
  close(): Promise<void>;
}

function answer(res: ServerResponse, status: number, json: unknown): void {
  const body = JSON.stringify(json);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

function refuse(res: ServerResponse, err: unknown): void {
  const e = err instanceof CrewError ? err : new CrewError('internal', 'crew: internal error while answering');
  answer(res, STATUS[e.code], CrewErrorBody.parse({ error: { code: e.code, message: e.message.slice(0, 500) } }));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit the rest is read and dropped, so the sender gets the answer, not a reset.
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => (size > MAX_BODY ? reject(new CrewError('too_large', `crew: a request body is at most ${MAX_BODY / 1024} KiB`)) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

/** Listen on `listen` (host:port) with `id`'s certificate. */
export async function startCrewListener(listen: string, id: Identity, routes: ListenerRoutes): Promise<CrewListener> {
  const at = parseListen(listen);
  if (!at.ok) throw new Error(`crew: ${at.error}`);
  const wss = new WebSocketServer({ noServer: true, maxPayload: CREW_MAX_FRAME });
  const verify = (req: IncomingMessage, body: string) => {
    const header = req.headers[SIGNATURE_HEADER];
    const r = verifyRequest({ method: req.method ?? 'GET', path: req.url ?? '/', body, header: typeof header === 'string' ? header : undefined }, (k) => routes.standing(k), routes.replay, routes.now(), routes.receiver());
    if (!r.ok) {
      routes.onRefused?.({ code: r.refusal, path: (req.url ?? '/').slice(0, 200), from: r.from ?? null });
      throw new CrewError(r.refusal, r.message);
    }
    routes.onAccepted();
    return { name: r.name, keyId: r.keyId };
  };
  const server = https.createServer({ key: id.keyPem, cert: id.certPem }, (req, res) => {
    void (async () => {
      try {
        const body = await readBody(req);
        const path = req.url ?? '/';
        if (req.method === 'POST' && path === '/crew/v1/join') {
          const h = req.headers[SIGNATURE_HEADER];
          return answer(res, 200, await routes.join(body, typeof h === 'string' ? h : undefined));
        }
        const who = verify(req, body);
        answer(res, 200, await routes.signed(req.method ?? 'GET', path, body, who));
      } catch (err) {
        refuse(res, err);
      }
    })();
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const no = (status: number, json: unknown) => {
      const body = JSON.stringify(json);
      socket.end(`HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    };
    try {
      if (req.url !== '/crew/v1/stream' || !routes.wantsStream()) throw new CrewError('not_found', 'crew: no stream here (this machine does not lead)');
      const who = verify(req, '');
      wss.handleUpgrade(req, socket, head, (ws) => {
        if (!routes.stream(who, ws)) ws.close(4404, 'crew: no stream here');
      });
    } catch (err) {
      const e = err instanceof CrewError ? err : new CrewError('internal', 'crew: internal error');
      no(STATUS[e.code], { error: { code: e.code, message: e.message } });
    }
  });
  server.on('clientError', (_e, socket) => socket.destroy());
  const closing = closingServer(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'EADDRINUSE' ? `crew: ${listen} is taken; pick another port for --listen` : err.code === 'EADDRNOTAVAIL' ? `crew: ${at.value.host} is not an address of this machine` : `crew: cannot listen on ${listen}: ${err.message}`)),
    );
    server.listen(at.value.port, at.value.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    address: listen,
    port,
    // Every connection ends with the listener: streams, requests, refusals and handshakes under way.
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      await closing.close();
    },
  };
}
