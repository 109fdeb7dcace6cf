/** Walky talky: agents message each other's panes through the bridge (one entry). */
import { join } from 'node:path';
import { REFUSAL, WALKY_WAIT_MS, type SendReceipt } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import type { Redactor } from '../redact';
import { typedText } from './body';
import { Delivery } from './delivery';
import { newMessageId } from './ids';
import { parseRequest, errorAnswer } from './parse';
import { findSs, peerOf, proveCaller, ssTable } from './peer';
import { WalkyService } from './service';
import { CrewHost } from './crew-host';
import { listenWalky } from './socket';
import { WalkyLog } from './walky-log';
import { maskAnswer } from './mask';
import { phoneWalky, type PhoneWalky } from './phone';
import type { CrewPort, CrewWalkyHost } from './crew-port';

export type { PhoneWalky } from './phone';
export type { CrewPort, CrewWalkyHost, CrewSelf } from './crew-port';

/** The bridge looks at its panes this often; a pane unseen for the grace loses its inbox. */
export const RESCAN_MS = 10_000;
export const INBOX_GRACE_MS = 30_000;

export interface WalkyOptions {
  stateDir: string;
  hub: EventHub;
  /** The send protocol's `send`, reused for every message. */
  send(paneId: string, text: string, requestId: string): Promise<SendReceipt>;
  receiptOf(requestId: string): SendReceipt | undefined;
  redact: Redactor;
  /** Re-list every tmux server's panes (tokens are swept there). */
  rescan(): void;
  off?: boolean;
  /** The crew this machine is in (crew/walky-relay.ts), asked at each message. */
  crew?: () => CrewPort | null;
  /** Test knobs: the 2-minute queue limit, the 15 s wait of `send`, the clock and its timers (a clock the test controls). */
  queueMs?: number;
  waitMs?: number;
  /** Test knob: how often the panes are looked at and the inbox swept (RESCAN_MS). */
  rescanMs?: number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => () => void;
  procRoot?: string;
}

export interface Walky {
  socketPath: string;
  log: WalkyLog;
  /** What the phone's routes use: the operator's sends and the log, bodies masked. */
  phone: PhoneWalky;
  /** What the crew's walky routes call (crew/walky-relay.ts). */
  crewHost: CrewWalkyHost;
  stop(): Promise<void>;
}

/** Open the log, resume what waited, and listen on `<state>/walky/sock`. */
export async function startWalky(o: WalkyOptions): Promise<Walky> {
  const now = o.now ?? Date.now;
  const dir = join(o.stateDir, 'walky');
  const log = await WalkyLog.open(dir, now, (body) => o.redact(body));
  const ssBin = await findSs();
  const ss = ssBin === null ? null : ssTable(ssBin);
  const service: WalkyService = new WalkyService({
    hub: o.hub,
    log,
    delivery: () => delivery,
    off: o.off ?? false,
    redact: o.redact,
    newId: newMessageId,
    now,
    waitMs: o.waitMs ?? WALKY_WAIT_MS,
    ...(o.crew ? { crew: o.crew } : {}),
  });
  const crewHost = new CrewHost(service, { log, redact: o.redact, now, off: o.off ?? false });
  const delivery = new Delivery({ send: o.send, receiptOf: o.receiptOf, hub: o.hub, settle: (id, s, r) => service.settle(id, s, r), queueMs: o.queueMs, now, ...(o.setTimer ? { setTimer: o.setTimer } : {}) });
  // A message for another machine's pane (`to.member`) is that machine's to type: its outcome comes back with its crew updates.
  for (const m of log.all()) if (m.state === 'accepted' && m.to && m.to.member === undefined) delivery.resume(m.to.paneId, m.id, typedText(m), m.at);

  const socketPath = join(dir, 'sock');
  const socket = await listenWalky(socketPath, async (line, conn) => {
    const parsed = parseRequest(line);
    if (!parsed.ok) return errorAnswer(parsed.code, parsed.message);
    // The caller is the process that holds the other end of this connection, never what it says.
    // Only this machine's own panes: a crew member's pids on a lead name processes of another machine.
    const byPid = new Map([...o.hub.panes.values()].filter((p) => !p.member).map((p) => [p.pid, p]));
    const proof = await proveCaller(parsed.req.pid, peerOf(conn, socketPath, ss), new Set(byPid.keys()), { procRoot: o.procRoot });
    if ('refused' in proof) {
      await log.refused(REFUSAL.notProved).catch(() => undefined);
      return errorAnswer('not_proved', proof.refused);
    }
    return maskAnswer(await service.handle(parsed.req, proof.panePid === null ? null : (byPid.get(proof.panePid) ?? null)), o.redact);
  });

  // A pane's inbox belongs to the pane and its token: unseen for 30 s, both are gone.
  const lastSeen = new Map<string, number>();
  const sweep = () => {
    o.rescan();
    const t = now();
    const live = new Set([...o.hub.panes.values()].map((p) => `${p.id}#${p.token}`));
    // This machine's own addresses: `local/`, and its member part in a crew.
    const own = new Set(['local', service.crewSelf()?.prefix ?? 'local']);
    for (const m of log.all()) {
      // Only this machine's own panes: a record of a message to another machine's pane stays
      // (by its `to.member`, and by its address for a record written before it had one).
      if (!m.to || m.to.member !== undefined || !own.has(m.to.address.split('/')[0]!)) continue;
      const key = `${m.to.paneId}#${m.to.token}`;
      const seen = lastSeen.get(key);
      if (live.has(key) || seen === undefined) lastSeen.set(key, live.has(key) ? t : (seen ?? t));
      else if (t - seen >= INBOX_GRACE_MS) {
        lastSeen.delete(key);
        void log.dropInbox(m.to.paneId, m.to.token).catch(() => undefined);
      }
    }
  };
  sweep();
  const timer = setInterval(sweep, o.rescanMs ?? RESCAN_MS);

  return {
    socketPath,
    log,
    phone: phoneWalky(service, crewHost, log, o.hub, o.redact),
    crewHost,
    async stop() {
      clearInterval(timer);
      delivery.stop();
      service.stop();
      await socket.close();
      await log.close();
    },
  };
}
