/**
 * The lead's end of its members' streams: each member's panes and sends merged into the lead's
 * hub under `@<member>/<id>`, and the phone's sends, keys and answers carried down with their
 * request ids. The lead polls nothing; a member that drops is greyed, not forgotten.
 */
import type { WebSocket } from 'ws';
import { CREW_MAX_FRAME, CrewUp, type AnswerRequest, type CrewDown, type CrewRequest, type KeyName, type ModelEvent, type Pane, type SendReceipt } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import { ApiError } from '../http/api-error';
import { SendRefusal } from '../send/refusal';
import { maskPane, maskReceipt } from './mask-up';
import { LeadCalls } from './lead-calls';
import { MemberDurable } from './lead-durable';

/** A member's pane id on the lead: `@<member>/<its id on the member>`. */
export const leadPaneId = (member: string, id: string) => `@${member}/${id}`;
/** The member and its own pane id, for a lead-side id; null for a local pane. */
export function splitPaneId(id: string): { member: string; id: string } | null {
  const m = /^@([a-z0-9][a-z0-9-]{0,31})\/(.+)$/.exec(id);
  return m ? { member: m[1]!, id: m[2]! } : null;
}

/** How long the lead waits for a member's first answer to a request before it says so. */
const REPLY_MS = 15_000;

interface Session {
  ws: WebSocket;
  pending: Map<string, { resolve: (r: SendReceipt) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>;
}

export interface LeadLinkEvents {
  onStatus(name: string, connected: boolean, version: string | null): void;
}

export class LeadLink {
  private readonly sessions = new Map<string, Session>();
  /** Lead-side pane ids per member, kept while the member is away (greyed). */
  private readonly panes = new Map<string, Set<string>>();
  private readonly lastSeen = new Map<string, number>();
  /** Members' durable agents in the lead's one Durable agents section. */
  private readonly durable: MemberDurable;
  /** Box actions, cancels, Chat, screens and durable taps carried to members (crew-phone.ts). */
  readonly calls: LeadCalls;

  constructor(
    private readonly hub: EventHub,
    private readonly events: LeadLinkEvents,
    /** The lead's own masking (COLLIE_REDACT), applied again to all a member sends up. */
    private readonly mask: (text: string) => string,
    private readonly now: () => number = Date.now,
  ) {
    this.durable = new MemberDurable(hub, mask);
    this.calls = new LeadCalls((name, f) => this.down(name, f));
  }

  /** One frame down a member's stream; false when it is not connected. */
  down(name: string, f: CrewDown): boolean {
    const s = this.sessions.get(name);
    if (!s) return false;
    s.ws.send(JSON.stringify(f));
    return true;
  }

  connected(name: string): boolean {
    return this.sessions.has(name);
  }

  /** A member's stream, after its upgrade was verified. A second stream replaces the first. */
  attach(name: string, ws: WebSocket): void {
    this.sessions.get(name)?.ws.close(4000, 'replaced by a newer stream');
    const session: Session = { ws, pending: new Map() };
    this.sessions.set(name, session);
    let version: string | null = null;
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary || data.length > CREW_MAX_FRAME) return ws.close(1009, 'crew: frame too large or binary');
      let json: unknown;
      try {
        json = JSON.parse(data.toString('utf8'));
      } catch {
        return ws.close(1007, 'crew: a frame is not JSON');
      }
      const frame = CrewUp.safeParse(json);
      if (!frame.success) return ws.close(1007, `crew: a frame does not match CrewUp: ${frame.error.issues[0]?.message ?? ''}`.slice(0, 120));
      this.lastSeen.set(name, this.now());
      const f = frame.data;
      if (f.type === 'hello') {
        version = f.version;
        this.events.onStatus(name, true, version);
        this.hello(name, f.snapshot.panes, f.snapshot.sends);
        this.durable.hello(name, f.snapshot.durable);
        this.calls.attached(name);
      } else if (f.type === 'event') this.event(name, f.event);
      else if (f.type !== 'reply') this.calls.frame(name, f);
      else {
        const p = session.pending.get(f.id);
        if (!p) return;
        session.pending.delete(f.id);
        clearTimeout(p.timer);
        if (f.receipt) p.resolve(this.receiptUp(name, f.receipt));
        else if (f.error?.code === 'empty_text' || f.error?.code === 'request_id_reused') p.reject(new SendRefusal(f.error.code, f.error.message));
        else p.reject(new ApiError(f.error?.code === 'not_found' ? 'not_found' : 'bad_request', f.error?.message ?? `crew: ${name} refused the request`));
      }
    });
    ws.on('close', () => {
      if (this.sessions.get(name) !== session) return;
      this.sessions.delete(name);
      for (const p of session.pending.values()) {
        clearTimeout(p.timer);
        p.reject(new ApiError('member_unreachable', `crew: ${name} dropped before it answered; send again with the same request id (it is never typed twice)`));
      }
      this.events.onStatus(name, false, version);
      this.calls.closed(name);
      this.grey(name);
      this.durable.grey(name, this.lastSeen.get(name) ?? this.now());
    });
    ws.on('error', () => undefined);
  }

  /** Close a member's stream and take its panes off the dashboard (it was removed). */
  forget(name: string): void {
    const s = this.sessions.get(name);
    this.sessions.delete(name);
    s?.ws.close(4403, 'crew: removed');
    for (const id of this.panes.get(name) ?? []) this.hub.publish({ type: 'pane.removed', id });
    this.panes.delete(name);
    this.calls.forget(name);
    this.durable.forget(name);
  }

  members(): string[] {
    return [...new Set([...this.sessions.keys(), ...this.panes.keys()])];
  }

  /** Carry one request to the member that owns `paneId`; resolves with the member's receipt. */
  request(paneId: string, op: 'send', body: { text: string; request_id: string }): Promise<SendReceipt>;
  request(paneId: string, op: 'keys', body: { keys: KeyName[]; request_id: string }): Promise<SendReceipt>;
  request(paneId: string, op: 'answer', body: AnswerRequest): Promise<SendReceipt>;
  request(paneId: string, op: CrewRequest['op'], body: CrewRequest['body']): Promise<SendReceipt> {
    const where = splitPaneId(paneId);
    const session = where ? this.sessions.get(where.member) : undefined;
    if (!where || !session) return Promise.reject(new ApiError('member_unreachable', `crew: ${where?.member ?? 'that member'} is not connected to the lead; the pane shows when it was last seen`));
    const frame = { type: 'request', op, pane: where.id, body } as CrewRequest;
    return new Promise((resolve, reject) => {
      const id = body.request_id;
      const timer = setTimeout(() => {
        session.pending.delete(id);
        reject(new ApiError('member_unreachable', `crew: ${where.member} did not answer in ${REPLY_MS / 1000} s; send again with the same request id (it is never typed twice)`));
      }, REPLY_MS);
      session.pending.set(id, { resolve, reject, timer });
      session.ws.send(JSON.stringify(frame));
    });
  }

  stop(): void {
    for (const s of this.sessions.values()) s.ws.close(1001, 'lead stopping');
    this.sessions.clear();
  }

  private paneUp(name: string, p: Pane, reachable: boolean): Pane {
    const rest = p.address.includes('/') ? p.address.slice(p.address.indexOf('/') + 1) : p.address;
    return { ...maskPane(p, this.mask), id: leadPaneId(name, p.id), address: `${name}/${rest}`, member: { name, reachable, lastSeen: this.lastSeen.get(name) ?? this.now() } };
  }

  private receiptUp(name: string, r: SendReceipt): SendReceipt {
    return { ...maskReceipt(r, this.mask), paneId: leadPaneId(name, r.paneId) };
  }

  private hello(name: string, panes: Pane[], sends: SendReceipt[]): void {
    const mine = this.panes.get(name) ?? new Set<string>();
    const now = new Set<string>();
    for (const p of panes) {
      const up = this.paneUp(name, p, true);
      now.add(up.id);
      this.hub.publish({ type: this.hub.panes.has(up.id) ? 'pane.updated' : 'pane.added', pane: up });
    }
    for (const id of mine) if (!now.has(id)) this.hub.publish({ type: 'pane.removed', id });
    this.panes.set(name, now);
    for (const r of sends) this.hub.publish({ type: 'send.updated', receipt: this.receiptUp(name, r) });
  }

  private event(name: string, e: ModelEvent): void {
    const mine = this.panes.get(name) ?? new Set<string>();
    this.panes.set(name, mine);
    switch (e.type) {
      case 'pane.added':
      case 'pane.updated': {
        const up = this.paneUp(name, e.pane, true);
        mine.add(up.id);
        this.hub.publish({ type: this.hub.panes.has(up.id) ? 'pane.updated' : 'pane.added', pane: up });
        break;
      }
      case 'pane.removed': {
        const id = leadPaneId(name, e.id);
        mine.delete(id);
        if (this.hub.panes.has(id)) this.hub.publish({ type: 'pane.removed', id });
        break;
      }
      case 'send.updated':
        this.hub.publish({ type: 'send.updated', receipt: this.receiptUp(name, e.receipt) });
        break;
      case 'session.changed': {
        // A member's session as the lead lists it: masked again, the member named, its pane the lead's id.
        const s = e.session;
        this.hub.publish({ type: 'session.changed', session: { ...s, title: s.title === null ? null : this.mask(s.title), pane: s.pane === null ? null : leadPaneId(name, s.pane), machine: name } });
        break;
      }
      default:
        if (e.type.startsWith('durable.')) this.durable.event(name, e as Parameters<MemberDurable['event']>[1]);
        break;
    }
  }

  /** A member that dropped: its panes stay, greyed, with when it was last seen. */
  private grey(name: string): void {
    for (const id of this.panes.get(name) ?? []) {
      const p = this.hub.panes.get(id);
      if (p) this.hub.publish({ type: 'pane.updated', pane: { ...p, member: { name, reachable: false, lastSeen: this.lastSeen.get(name) ?? p.member?.lastSeen ?? this.now() } } });
    }
  }
}
