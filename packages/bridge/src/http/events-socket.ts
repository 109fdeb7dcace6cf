import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { CLOSE_DEVICE_CHANGED, CLOSE_DEVICE_REVOKED, ClientMessage, STOPPING_CLOSE, type ModelEvent, type PaneChatMessage, type PaneScreen, type ServerMessage } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import { hostAllowed, originAllowed } from './security';
import type { AuthResult } from './auth';

export interface EventsDeps {
  hub: EventHub;
  hosts: () => ReadonlySet<string>;
  /** Start screen frames of a pane to `send`; null when there is no such pane. */
  watchScreen: (id: string, send: (frame: PaneScreen) => void) => (() => void) | null;
  /** False while the bridge is still finding its panes: a phone let in now would see none. */
  ready?: () => boolean;
  /** The same device check as every API route (`auth.ts`), on the upgrade request. */
  authorize: (req: IncomingMessage) => AuthResult;
  /** Start a pane's chat to `send` (`chat.subscribe`); null when there is no such pane. Absent: no chats. */
  watchChat?: (id: string, send: (m: PaneChatMessage) => void) => (() => void) | null;
}


/** A client that reads this far behind is dropped; it resumes from its last seq. */
const MAX_BUFFERED = 8 * 1024 * 1024;
/** Client messages are tiny commands. */
const MAX_PAYLOAD = 16 * 1024;
const MAX_WATCHED = 8;

/**
 * The last event's text. The hub hands each event, one object, to every phone in turn: it is
 * written once for all of them, not once for each (JSON.stringify's native stack is among the
 * bridge's largest churns of malloc). Only the last is kept, so no more text is held.
 */
let lastEvent: ModelEvent | null = null;
let lastText = '';
function textOf(e: ModelEvent): string {
  if (e !== lastEvent) {
    lastText = JSON.stringify(e);
    lastEvent = e;
  }
  return lastText;
}

/**
 * `/api/events`: the live stream. Replays what a resuming client missed (or a snapshot),
 * then every model event as it is published, plus screen frames of watched panes.
 */
export function eventsSocket(d: EventsDeps) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });

  function reject(socket: Duplex, status: number, text: string): void {
    socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-type: text/plain\r\n\r\n${text}\n`);
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://bridge');
    if (url.pathname !== '/api/events') return reject(socket, 404, 'Not Found');
    const host = req.headers.host;
    if (!hostAllowed(host, d.hosts())) return reject(socket, 403, 'Forbidden Host');
    const fetchSite = req.headers['sec-fetch-site'];
    if (!originAllowed(req.headers.origin, typeof fetchSite === 'string' ? fetchSite : undefined, host)) return reject(socket, 403, 'Forbidden Origin');
    if (d.ready && !d.ready()) return reject(socket, 503, 'Starting');
    const auth = d.authorize(req);
    if (!auth.ok) return reject(socket, 401, 'Unauthorized');
    const device = auth.who.kind === 'device' ? auth.who.device.id : null;
    const maySend = auth.who.kind === 'device' ? auth.who.device.maySend : true;
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, url, device, maySend));
  }

  /** Open sockets by the device that opened them, so a revocation cuts them at once. */
  const byDevice = new Map<string, Set<WebSocket>>();

  function closeDevice(id: string): void {
    for (const ws of byDevice.get(id) ?? []) ws.close(CLOSE_DEVICE_REVOKED, 'device revoked');
    byDevice.delete(id);
  }

  /** The device's send right changed: its sockets close, and reconnect to read it in the hello. */
  function deviceChanged(id: string): void {
    for (const ws of byDevice.get(id) ?? []) ws.close(CLOSE_DEVICE_CHANGED, 'device right changed');
  }

  function serve(ws: WebSocket, url: URL, device: string | null, maySend: boolean): void {
    if (device !== null) {
      const set = byDevice.get(device) ?? new Set();
      set.add(ws);
      byDevice.set(device, set);
      ws.on('close', () => byDevice.get(device)?.delete(ws));
    }
    const sendText = (text: string) => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > MAX_BUFFERED) return ws.close(1013, 'too far behind; reconnect with since');
      ws.send(text);
    };
    const send = (m: ServerMessage) => sendText(JSON.stringify(m));
    const since = Number(url.searchParams.get('since'));
    const run = url.searchParams.get('run');
    const replay = url.searchParams.has('since') && Number.isInteger(since) && (run === null || run === d.hub.run) ? d.hub.since(since) : null;
    send({ type: 'hello', run: d.hub.run, seq: d.hub.lastSeq, resumed: replay !== null, maySend });
    if (replay) for (const e of replay) sendText(textOf(e));
    else send({ type: 'sync.reset', snapshot: d.hub.snapshot() });
    const off = d.hub.subscribe((e: ModelEvent) => sendText(textOf(e)));
    const watched = new Map<string, () => void>();
    const chats = new Map<string, () => void>();

    ws.on('message', (data, isBinary) => {
      if (isBinary) return send({ type: 'error', code: 'bad_request', message: 'bridge: send text frames of JSON' });
      let json: unknown;
      try {
        json = JSON.parse(data.toString());
      } catch {
        return send({ type: 'error', code: 'bad_json', message: 'bridge: that message is not JSON' });
      }
      const msg = ClientMessage.safeParse(json);
      if (!msg.success) return send({ type: 'error', code: 'bad_request', message: `bridge: unknown message: ${msg.error.issues[0]?.message ?? ''}` });
      const m = msg.data;
      if (m.type === 'screen.subscribe') {
        if (watched.has(m.id)) return;
        if (watched.size >= MAX_WATCHED) return send({ type: 'error', code: 'bad_request', message: `bridge: at most ${MAX_WATCHED} screens at once` });
        const stop = d.watchScreen(m.id, send);
        if (!stop) return send({ type: 'error', code: 'not_found', message: `bridge: no pane '${m.id}'` });
        watched.set(m.id, stop);
      } else if (m.type === 'screen.unsubscribe') {
        watched.get(m.id)?.();
        watched.delete(m.id);
      } else if (m.type === 'chat.subscribe') {
        if (chats.has(m.id)) return;
        if (chats.size >= MAX_WATCHED) return send({ type: 'error', code: 'bad_request', message: `bridge: at most ${MAX_WATCHED} chats at once` });
        const stop = d.watchChat?.(m.id, send) ?? null;
        if (!stop) return send({ type: 'error', code: 'not_found', message: `bridge: no pane '${m.id}'` });
        chats.set(m.id, stop);
      } else if (m.type === 'chat.unsubscribe') {
        chats.get(m.id)?.();
        chats.delete(m.id);
      }
    });
    ws.on('close', () => {
      off();
      for (const stop of watched.values()) stop();
      for (const stop of chats.values()) stop();
    });
    ws.on('error', () => ws.terminate());
  }

  // ws 8 leaves open clients alone on close(), and the http server waits for their
  // upgraded sockets: end them, or stopping the bridge hangs while a phone is connected.
  const close = () => {
    for (const ws of wss.clients) ws.terminate();
    wss.close();
  };
  /**
   * Tells every phone the bridge stops on purpose, and closes their sockets with 1001 before
   * the trackers stop: the pane removals a stop publishes must never reach a phone as "gone".
   */
  const stopping = () => {
    const message = JSON.stringify({ type: 'bridge.stopping', run: d.hub.run, at: Date.now() } satisfies ServerMessage);
    for (const ws of wss.clients) {
      if (ws.readyState !== ws.OPEN) continue;
      ws.send(message);
      ws.close(STOPPING_CLOSE.code, STOPPING_CLOSE.reason);
    }
  };
  return { handleUpgrade, close, stopping, closeDevice, deviceChanged };
}
