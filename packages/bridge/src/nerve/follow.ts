/**
 * One Nerve the bridge follows: reads its `api.json` (URL and bearer token; again for every
 * request, so a restarted Nerve on a new port is found), follows its event socket into the hub
 * with back-off, remembers which sessions it holds, and forwards one request with its token.
 */
import { readFile } from 'node:fs/promises';
import WebSocket from 'ws';
import { NerveApiFile, NerveEventFrame } from '@collie/protocol';
import type { EventHub } from '../events/hub';

export type NerveAnswer = { status: number; body: unknown };

/** Queued messages typed on the phone are the phone's: only it cancels them. */
export const PHONE_SENDER = 'phone';
const FORWARD_MS = 15_000;

export interface Follower {
  readonly name: string;
  readonly apiFile: string;
  readonly state: 'down' | 'ready';
  /** Session ids this Nerve is known to hold (from its events and its session lists). */
  readonly sessions: Set<string>;
  /** One request to this Nerve's API; null when it cannot be reached. */
  request(method: string, path: string, body: string | null): Promise<NerveAnswer | null>;
  stop(): void;
}

export function followNerve(o: { hub: EventHub; name: string; apiFile: string; backoff?: { first: number; max: number } }): Follower {
  let state: 'down' | 'ready' = 'down';
  let ws: WebSocket | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let delay = o.backoff?.first ?? 500;
  const sessions = new Set<string>();

  const read = async (): Promise<NerveApiFile | null> => {
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
    o.hub.publish({ type: 'nerve.link', state: next, nerve: o.name });
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
      if (!f.success) return;
      sessions.add(f.data.event.session_id);
      o.hub.publish({ type: 'nerve.event', event: f.data.event });
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (ws === socket) ws = null;
      if (stopped) return;
      setState('down');
      retry();
    });
  };

  void connect();

  return {
    name: o.name,
    apiFile: o.apiFile,
    get state() {
      return state;
    },
    sessions,
    async request(method, path, body) {
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
          parsed = { error: { code: 'internal', message: `bridge: Nerve '${o.name}' answered something that is not JSON` } };
        }
        return { status: res.status, body: parsed };
      } catch {
        return null;
      }
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      ws?.terminate();
      ws = null;
    },
  };
}
