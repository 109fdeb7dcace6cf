/**
 * `/api/events`: Nerve's WebSocket of events, behind the same Host and origin gates as the
 * routes. Every event goes to every client, but an agent's transcript lines (`agent.transcript`)
 * only to a client that subscribed to that agent (`{"type": "subscribe_transcripts",
 * "agent_ids": [...]}`, at most 8, replacing the last; answered `{"subscribed": [...]}`).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { hostAllowed, NerveSocketCommand, originAllowed, type NerveEventFrame, type NerveSocketAnswer } from '@collie/protocol';
import type { Gateway } from '../gateway/gateway';
import { checkCredential } from './credential';

/** A client's command on the socket (`NerveSocketCommand`), or what is wrong with it. Pure. */
export function readSocketCommand(text: string): { ok: true; agentIds: string[] } | { ok: false; message: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, message: 'nerve: a socket command is JSON' };
  }
  const cmd = NerveSocketCommand.safeParse(raw);
  if (cmd.success) return { ok: true, agentIds: cmd.data.agent_ids };
  const i = cmd.error.issues[0]!;
  return { ok: false, message: `nerve: ${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}` };
}

/** A client this far behind is dropped; it resumes from its last seq. */
const MAX_BUFFERED = 8 * 1024 * 1024;

export function eventsSocket(gateway: Gateway, hosts: () => ReadonlySet<string>, token: string) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const reject = (socket: Duplex, status: number, text: string): void => {
    socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-type: text/plain\r\n\r\n${text}\n`);
  };

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://nerve');
    if (url.pathname !== '/api/events') return reject(socket, 404, 'Not Found');
    const host = req.headers.host;
    if (!hostAllowed(host, hosts())) return reject(socket, 403, 'Forbidden Host');
    const site = req.headers['sec-fetch-site'];
    if (!originAllowed(req.headers.origin, typeof site === 'string' ? site : undefined, host)) return reject(socket, 403, 'Forbidden Origin');
    if (!checkCredential(req.headers.authorization, token).ok) return reject(socket, 401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => {
      let transcripts = new Set<string>();
      const send = (f: NerveEventFrame) => {
        if (f.event.type === 'agent.transcript' && !transcripts.has(f.event.line.agent_id)) return;
        if (ws.bufferedAmount > MAX_BUFFERED) ws.terminate();
        else ws.send(JSON.stringify(f));
      };
      const off = gateway.subscribe(send);
      ws.on('close', off);
      ws.on('message', (data: Buffer) => {
        const cmd = readSocketCommand(data.toString());
        if (cmd.ok) transcripts = new Set(cmd.agentIds);
        const answer: NerveSocketAnswer = cmd.ok ? { subscribed: [...transcripts] } : { error: { code: 'bad_request', message: cmd.message } };
        ws.send(JSON.stringify(answer));
      });
    });
  }

  return {
    handleUpgrade,
    // ws does not end its clients on close; an open client would hold the HTTP server open.
    close: () => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}
