/**
 * A member's one stream to its lead: its panes and sends up as they change, the lead's
 * requests down, run through this machine's own send protocol with the phone's request id
 * (so a request carried twice is typed once). Reconnects with back-off.
 */
import { WebSocket } from 'ws';
import { CREW_MAX_FRAME, CREW_UP_EVENTS, CrewDown, parseListen, type CrewRequest, type CrewUp, type KeyName, type SendReceipt } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import { toApiError } from '../http/api-error';
import { keyIdOfCert, type Identity } from './identity';
import { signedHeaders } from './client';
import { pinnedTls } from './tls';
import { MemberCalls, type MemberPhone } from './member-calls';

export interface MemberSends {
  send(paneId: string, text: string, requestId: string): Promise<SendReceipt>;
  keys(paneId: string, keys: readonly KeyName[], requestId: string): Promise<SendReceipt>;
  answer(paneId: string, req: Extract<CrewRequest, { op: 'answer' }>['body']): Promise<SendReceipt>;
}

export interface MemberLinkOptions {
  id: Identity;
  name: string;
  version: string;
  lead: { listen: string; certPem: string };
  hub: EventHub;
  sends: MemberSends;
  /** Back-off of reconnects (ms); tests shorten it. */
  backoff?: { first: number; max: number };
  log?: (line: string) => void;
  /** The clock of signatures; a test sets it off to see `stale`. */
  now?: () => number;
  /** Box actions, cancels, Chat, screens and durable agents for the lead's phone (crew-phone.ts). */
  phone?: MemberPhone;
  /** The stream to the lead came up or went down (pushes: the lead pushes this machine's panes while it is up). */
  onLink?: (connected: boolean) => void;
}

/** Why the lead last refused the stream (`removed`, `stale`, …), or null while it is fine. */
export type LinkState = { connected: boolean; refused: string | null; attempts: number };

export class MemberLink {
  private ws: WebSocket | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private delay: number;
  private offHub: (() => void) | null = null;
  private lastError = '';
  readonly state: LinkState = { connected: false, refused: null, attempts: 0 };
  private readonly calls: MemberCalls | null;

  constructor(private readonly o: MemberLinkOptions) {
    this.delay = o.backoff?.first ?? 500;
    this.calls = o.phone ? new MemberCalls(o.phone, o.name, (f) => this.up(f), (id) => o.hub.panes.has(id)) : null;
  }

  start(): void {
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.offHub?.();
    this.calls?.reset();
    this.ws?.close(1001, 'member stopping');
  }

  private connect(): void {
    if (this.stopped) return;
    const at = parseListen(this.o.lead.listen);
    if (!at.ok) return this.o.log?.(`crew: the lead's address is damaged: ${at.error}`);
    const host = at.value.host.includes(':') ? `[${at.value.host}]` : at.value.host;
    const path = '/crew/v1/stream';
    this.state.attempts++;
    const ws = new WebSocket(`wss://${host}:${at.value.port}${path}`, {
      headers: signedHeaders(this.o.id, 'GET', path, '', keyIdOfCert(this.o.lead.certPem), this.o.now?.()),
      maxPayload: CREW_MAX_FRAME,
      handshakeTimeout: 10_000,
      ...pinnedTls(this.o.lead.certPem),
    });
    this.ws = ws;
    let openedAt = 0;
    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let code = `HTTP ${res.statusCode ?? 0}`;
        try {
          code = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error: { code: string } }).error.code;
        } catch {
          // keep the status
        }
        if (this.state.refused !== code) this.o.log?.(`crew: the lead refused the stream: ${code}`);
        this.state.refused = code;
        ws.terminate();
      });
      res.on('error', () => ws.terminate());
    });
    ws.on('open', () => {
      openedAt = Date.now();
      this.state.connected = true;
      this.state.refused = null;
      this.lastError = '';
      // Panes, sends and durable agents go up as this machine's hub holds them (already masked).
      this.up({ type: 'hello', name: this.o.name, version: this.o.version, snapshot: this.o.hub.snapshot() });
      this.offHub = this.o.hub.subscribe((event) => {
        if (CREW_UP_EVENTS.has(event.type)) this.up({ type: 'event', event });
      });
      this.o.onLink?.(true);
    });
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) return;
      let json: unknown;
      try {
        json = JSON.parse(data.toString('utf8'));
      } catch {
        return;
      }
      const f = CrewDown.safeParse(json);
      if (!f.success) return;
      if (f.data.type === 'request') void this.run(f.data);
      else if (f.data.type === 'call') void this.calls?.call(f.data);
      else if (f.data.type === 'watch') this.calls?.watch(f.data);
      else if (f.data.type === 'unwatch') this.calls?.unwatch(f.data);
    });
    ws.on('close', () => {
      this.offHub?.();
      this.offHub = null;
      this.calls?.reset();
      const was = this.state.connected;
      this.state.connected = false;
      if (was) this.o.onLink?.(false);
      if (this.ws === ws) this.ws = null;
      if (this.stopped) return;
      // A stream that stayed up a minute starts the back-off over.
      if (openedAt && Date.now() - openedAt > 60_000) this.delay = this.o.backoff?.first ?? 500;
      this.timer = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, this.o.backoff?.max ?? 30_000);
    });
    ws.on('error', (err) => {
      // One line per kind of failure, not one per retry.
      if (!this.state.refused && err.message !== this.lastError) this.o.log?.(`crew: stream to the lead: ${err.message}; retrying with back-off`);
      this.lastError = err.message;
    });
  }

  private up(frame: CrewUp): void {
    if (this.ws?.readyState !== WebSocket.OPEN) return;
    let text = JSON.stringify(frame);
    // A frame over the link's limit would close the stream, again at every reconnect: a hello
    // goes without its durable threads (the lead reads a conversation when it is opened), and
    // any other frame that large is left out, said once in the log.
    if (Buffer.byteLength(text) > CREW_MAX_FRAME && frame.type === 'hello' && frame.snapshot.durable) {
      text = JSON.stringify({ ...frame, snapshot: { ...frame.snapshot, durable: { ...frame.snapshot.durable, threads: [] } } });
    }
    if (Buffer.byteLength(text) > CREW_MAX_FRAME) return this.o.log?.(`crew: a ${frame.type} frame is over the link's ${CREW_MAX_FRAME / 1024 / 1024} MB; not sent to the lead`);
    this.ws.send(text);
  }

  /** One request of the lead, through this machine's send protocol; the receipt or the error goes back. */
  private async run(r: CrewRequest): Promise<void> {
    const id = r.body.request_id;
    try {
      if (!this.o.hub.panes.has(r.pane)) throw Object.assign(new Error(`crew: ${this.o.name} has no pane '${r.pane.slice(0, 100)}'`), { code: 'not_found' });
      const receipt =
        r.op === 'send' ? await this.o.sends.send(r.pane, r.body.text, id) : r.op === 'keys' ? await this.o.sends.keys(r.pane, r.body.keys, id) : await this.o.sends.answer(r.pane, r.body);
      this.up({ type: 'reply', id, receipt, error: null });
    } catch (err) {
      const code = (err as { code?: unknown }).code === 'not_found' ? 'not_found' : toApiError(err).code;
      this.up({ type: 'reply', id, receipt: null, error: { code, message: (err as Error).message.slice(0, 500) } });
    }
  }
}
