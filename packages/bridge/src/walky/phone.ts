import type { Pane, WalkyAnswer, WalkyMessage, WalkyRefusalCounts, WalkySkipped } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import type { Redactor } from '../redact';
import type { CrewHost } from './crew-host';
import type { WalkyService } from './service';
import type { WalkyLog } from './walky-log';

/** The phone's list holds at most this many messages (newest first). */
export const PHONE_LIST_MAX = 500;

/** Walky talky as the phone's routes see it: the operator's own sends and the log, masked. */
export interface PhoneWalky {
  machine: string;
  /** Messages to or from `paneId` (every message without it), newest first. */
  messages(paneId?: string): WalkyMessage[];
  refusals(): WalkyRefusalCounts;
  /** On a lead: a member pane's messages (`@<member>/…`) from that member's own log; null when it cannot be read now. */
  memberMessages(paneId: string): Promise<WalkyMessage[] | null>;
  /** What `member` of a broadcast may name here. */
  machines(): string[];
  send(device: string, to: { address: string } | { replyTo: string; address?: string }, body: string, id?: string): Promise<WalkyMessage | { unknown: string }>;
  /** `status <id>` as the CLI reads it: one message (body masked), or a broadcast's lines. */
  status(id: string): Promise<WalkyAnswer>;
  /** `machine`: one machine's agent panes (a member's name, or this machine); absent: every machine. */
  broadcast(device: string, body: string, machine?: string): Promise<{ id: string; messages: WalkyMessage[]; skipped: WalkySkipped[] }>;
}

export function phoneWalky(service: WalkyService, crew: Pick<CrewHost, 'readMember'>, log: WalkyLog, hub: Pick<EventHub, 'machine'>, redact: Redactor): PhoneWalky {
  // A body leaves the bridge masked, as `walky.updated` carries it.
  const mask = (m: WalkyMessage): WalkyMessage => ({ ...m, body: redact(m.body) });
  return {
    machine: hub.machine,
    messages(paneId) {
      const about = (m: WalkyMessage) => paneId === undefined || m.to?.paneId === paneId || m.from.paneId === paneId;
      return log.all().filter(about).reverse().slice(0, PHONE_LIST_MAX).map(mask);
    },
    machines: () => service.machines(),
    async memberMessages(paneId) {
      return (await crew.readMember(paneId))?.map(mask) ?? null;
    },
    refusals() {
      return Object.fromEntries(Object.entries(log.refusals()).map(([reason, r]) => [reason, r.count]));
    },
    async send(device, to, body, id) {
      const m = await service.operatorSend(device, to, body, id);
      return 'id' in m ? mask(m) : m;
    },
    async status(id) {
      const a = await service.status(id);
      return a.verb === 'status' && a.message ? { ...a, message: mask(a.message) } : a;
    },
    async broadcast(device, body, machine) {
      const r = await service.broadcast(device, body, machine);
      return { id: r.id, messages: r.messages.map(mask), skipped: r.skipped };
    },
  };
}
