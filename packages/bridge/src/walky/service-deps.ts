import type { Pane, WalkyEnvelope, WalkyMessage, WalkyState, WalkyTarget } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import type { Redactor } from '../redact';
import type { Carried, CrewPort, CrewSelf } from './crew-port';
import type { Delivery } from './delivery';
import type { WalkyLog } from './walky-log';

// What the walky service stands on, and the part of it a broadcast runs through: shared by
// service.ts and broadcast.ts so each imports this file, never the other way round.

export interface ServiceDeps {
  hub: EventHub;
  log: WalkyLog;
  delivery: () => Delivery;
  /** COLLIE_WALKY=off: every message for this machine's panes is refused. */
  off: boolean;
  redact: Redactor;
  newId(): string;
  now(): number;
  /** How long `send` waits for a final receipt (15 s). */
  waitMs: number;
  /** The crew this machine is in, when it is in one (crew/walky-relay.ts). */
  crew?: () => CrewPort | null;
}

/** Messages that cross machines of the crew (crew-send.ts's CrewSend is this). */
export interface CrewSending {
  envelope(m: WalkyMessage, body: string, origin: string): WalkyEnvelope;
  viaLead(m: WalkyMessage, raw: string, waitMs: number, leadAnswer?: boolean): Promise<WalkyMessage>;
  toMember(m: WalkyMessage, raw: string, waitMs: number, member: string, origin?: { envelope: WalkyEnvelope; sig: string; cert: string }): Promise<WalkyMessage>;
  carried(id: string, c: Carried): Promise<void>;
  change(id: string, state: WalkyState, reason: string | null, to?: WalkyMessage['to']): Promise<void>;
}

/** The service as crew-send.ts sees it (WalkyService is one). */
export interface CrewSendHost {
  readonly d: ServiceDeps;
  crewSelf(): CrewSelf | null;
  checkBody(raw: string): { body: string } | { refused: string };
  refused(m: WalkyMessage, reason: string): Promise<WalkyMessage>;
  save(m: WalkyMessage): Promise<void>;
  /** `save`, tried again until written when the write fails (service.ts). */
  keep(m: WalkyMessage): Promise<void>;
  /** A message's first write: null once on disk, else the message refused as not saved (service.ts). */
  saveFirst(m: WalkyMessage): Promise<WalkyMessage | null>;
  settled(id: string, ms: number): Promise<WalkyMessage>;
}

/** The service as broadcast.ts sees it (WalkyService is one). */
export interface BroadcastHost {
  readonly d: ServiceDeps;
  readonly crewSend: CrewSending;
  crewSelf(): CrewSelf | null;
  crewPort(): CrewPort | null;
  shown(address: string): string;
  checkBody(raw: string): { body: string } | { refused: string };
  operatorSend(device: string, to: { address: string } | { replyTo: string; address?: string }, raw: string, asked?: string, broadcast?: string): Promise<WalkyMessage | { unknown: string }>;
  draft(id: string, me: Pane | null, asked: string, replyTo: string | null): WalkyMessage;
  target(p: Pane, member?: string): WalkyTarget;
  refused(m: WalkyMessage, reason: string): Promise<WalkyMessage>;
  saveFirst(m: WalkyMessage): Promise<WalkyMessage | null>;
}

/** The service as read-verbs.ts sees it (WalkyService is one). */
export interface InboxHost {
  readonly d: ServiceDeps;
  crewSelf(): CrewSelf | null;
  shown(address: string): string;
  known(id: string): WalkyMessage | undefined;
  save(m: WalkyMessage): Promise<void>;
}
