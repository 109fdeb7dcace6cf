import type { PaneScreen } from '@collie/protocol';
import { startCrew, type Crew } from '../crew';
import type { DurableService } from '../durable';
import type { EventHub } from '../events/hub';
import type { openTokenStore } from '../panes/token-file';
import type { PushService } from '../push';
import type { Redactor } from '../redact';
import type { ReceiptStore } from '../send/receipt-store';
import type { SendService } from '../send/send-service';
import type { SessionActions } from '../sessions/actions';
import type { PaneChats } from '../transcripts';
import { startWalky, type Walky } from '../walky';
import type { Late } from './late';
import type { BridgeOptions } from './options';
import type { TmuxServers } from './tmux-servers';

/** Walky talky over this machine's panes, its messages typed through the send protocol. */
export function startBridgeWalky(
  o: BridgeOptions,
  d: { hub: EventHub; redact: Redactor; sends: SendService; store: ReceiptStore; servers: TmuxServers; tokens: Awaited<ReturnType<typeof openTokenStore>>; late: Late },
): Promise<Walky> {
  const { sends, store, servers, late } = d;
  return startWalky({
    stateDir: o.stateDir,
    hub: d.hub,
    send: (paneId, text, requestId) => sends.send(paneId, text, requestId),
    receiptOf: (requestId) => store.get(requestId)?.receipt,
    redact: d.redact,
    rescan: () => {
      servers.syncStructure();
      d.tokens.touch();
    },
    crew: () => late.crew?.walky ?? null,
    ...(o.clock ? { now: o.clock.now, setTimer: o.clock.setTimer } : {}),
    ...o.walky,
  });
}

/** The crew: this bridge as a lead of members, or a member of a lead. */
export function startBridgeCrew(
  o: BridgeOptions,
  d: { run: string; hub: EventHub; redact: Redactor; sends: SendService; chats: PaneChats; durable: DurableService; sessions: SessionActions; push: PushService; late: Late; watchScreen: (id: string, send: (f: PaneScreen) => void) => (() => void) | null },
): Promise<Crew> {
  const { sends, late } = d;
  return startCrew({
    stateDir: o.stateDir,
    hub: d.hub,
    sends,
    version: o.version,
    machine: o.machine,
    run: d.run,
    redact: d.redact,
    // A member lends its lead's phone the same services its own phone uses.
    phone: { sends, chats: d.chats, watchScreen: d.watchScreen, durable: d.durable, sessions: d.sessions },
    log: (l) => process.stderr.write(`collie: ${l}\n`),
    ...(o.crew?.backoff ? { backoff: o.crew.backoff } : {}),
    ...(o.crew?.now ? { now: o.crew.now } : {}),
    ...(o.crew?.walkyMachineMs ? { walkyMachineMs: o.crew.walkyMachineMs } : {}),
    walky: () => late.walky?.crewHost ?? null,
    onLink: () => d.push.linkChanged(),
  });
}
