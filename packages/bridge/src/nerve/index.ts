/**
 * Nerve on the bridge: reads Nerve's `api.json` (its URL and bearer token), follows its event
 * socket into the hub (`nerve.event`, `nerve.link`), and forwards a paired device's
 * `/api/nerve/*` to Nerve's `/api/*` with the token. The phone never holds Nerve's token; Nerve
 * never sees a request without it. One adapter: nothing else of the bridge speaks to Nerve.
 */
import { readFile } from 'node:fs/promises';
import WebSocket from 'ws';
import { NerveApiFile, NerveEventFrame } from '@collie/protocol';
import type { EventHub } from '../events/hub';

export interface NerveLinkOptions {
  hub: EventHub;
  /** Nerve's `<state_dir>/api.json`; null: no Nerve. */
  apiFile: string | null;
  backoff?: { first: number; max: number };
}

export type NerveAnswer = { status: number; body: unknown };

export interface NerveLink {
  readonly state: 'off' | 'down' | 'ready';
  /** Forwards one request to Nerve's API; null when Nerve cannot be reached. */
  forward(method: string, path: string, body: string | null): Promise<NerveAnswer | null>;
  stop(): Promise<void>;
}

/** What a device may send on: every route of Nerve's API but its event socket. */
export const FORWARDED = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** Queued messages typed on the phone are the phone's: only it cancels them. */
export const PHONE_SENDER = 'phone';
const FORWARD_MS = 15_000;

export function startNerveLink(o: NerveLinkOptions): NerveLink {
  let state: NerveLink['state'] = o.apiFile === null ? 'off' : 'down';
  let ws: WebSocket | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let delay = o.backoff?.first ?? 500;

  const read = async (): Promise<NerveApiFile | null> => {
    if (o.apiFile === null) return null;
    try {
      const got = NerveApiFile.safeParse(JSON.parse(await readFile(o.apiFile, 'utf8')));
      return got.success ? got.data : null;
    } catch {
      return null;
    }
  };

  const setState = (next: 'down' | 'ready') => {
    if (state === next) return;
    state = next;
    o.hub.publish({ type: 'nerve.link', state: next });
  };

  const retry = () => {
    if (stopped) return;
    timer = setTimeout(() => void connect(), delay);
    timer.unref();
    delay = Math.min(delay * 2, o.backoff?.max ?? 30_000);
  };

  const connect = async () => {
    timer = null;
    const api = await read();
    if (stopped) return;
    if (!api) return retry();
    const socket = new WebSocket(`${api.url.replace(/^http/, 'ws')}/api/events`, { headers: { authorization: `Bearer ${api.token}` } });
    ws = socket;
    socket.on('open', () => {
      delay = o.backoff?.first ?? 500;
      setState('ready');
    });
    socket.on('message', (data: Buffer) => {
      let raw: unknown;
      try {
        raw = JSON.parse(data.toString());
      } catch {
        return;
      }
      const f = NerveEventFrame.safeParse(raw);
      if (f.success) o.hub.publish({ type: 'nerve.event', event: f.data.event });
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (ws === socket) ws = null;
      if (stopped) return;
      setState('down');
      retry();
    });
  };

  if (o.apiFile !== null) void connect();

  return {
    get state() {
      return state;
    },
    async forward(method, path, body) {
      const api = await read();
      if (!api) return null;
      try {
        const res = await fetch(`${api.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json', 'x-nerve-sender': PHONE_SENDER },
          ...(body !== null && method !== 'GET' ? { body } : {}),
          signal: AbortSignal.timeout(FORWARD_MS),
        });
        const text = await res.text();
        let parsed: unknown = null;
        try {
          parsed = text === '' ? null : JSON.parse(text);
        } catch {
          parsed = { error: { code: 'internal', message: 'bridge: Nerve answered something that is not JSON' } };
        }
        return { status: res.status, body: parsed };
      } catch {
        return null;
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      ws?.terminate();
      ws = null;
    },
  };
}
