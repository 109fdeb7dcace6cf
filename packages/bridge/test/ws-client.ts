import WebSocket from 'ws';
import { ServerMessage } from '@collie/protocol';

/** A test client of /api/events that validates every message and lets a test await one. */
export class EventsClient {
  readonly messages: ServerMessage[] = [];
  private waiters: { check: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  readonly ws: WebSocket;
  readonly opened: Promise<void>;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url.replace(/^http/, 'ws'), { headers });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      this.ws.once('error', reject);
    });
    this.ws.on('message', (data) => {
      const m = ServerMessage.parse(JSON.parse(data.toString()));
      this.messages.push(m);
      this.waiters = this.waiters.filter((w) => (w.check(m) ? (w.resolve(m), false) : true));
    });
  }

  next<T extends ServerMessage>(what: string, check: (m: ServerMessage) => m is T, ms?: number): Promise<T>;
  next(what: string, check: (m: ServerMessage) => boolean, ms?: number): Promise<ServerMessage>;
  next(what: string, check: (m: ServerMessage) => boolean, ms?: number): Promise<ServerMessage> {
    const limit = ms ?? 10_000;
    const have = this.messages.find(check);
    if (have) return Promise.resolve(have);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), limit);
      this.waiters.push({ check, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  send(m: unknown): void {
    this.ws.send(typeof m === 'string' ? m : JSON.stringify(m));
  }

  close(): void {
    this.ws.close();
  }
}
