import type { Hono } from 'hono';
import type { Pane, PaneScreen } from '@collie/protocol';
import { crewAdmin } from '../crew/admin-phone';
import { phoneChats, phoneDurable } from '../crew/lead-phone';
import { phoneSends } from '../crew/phone-sends';
import type { DeviceStore } from '../devices';
import type { DurableService } from '../durable';
import type { EventHub } from '../events/hub';
import { createApp } from '../http/app';
import { authorize, peerOf, type AuthDeps } from '../http/auth';
import { eventsSocket } from '../http/events-socket';
import type { NerveLink } from '../nerve';
import type { PushService } from '../push';
import type { SendService } from '../send/send-service';
import type { Sessions } from '../sessions';
import { sessionActions, type SessionActions } from '../sessions/actions';
import { crewSessions } from '../sessions/crew-sessions';
import { sessionRoutes } from '../sessions/routes';
import type { PaneChats } from '../transcripts';
import type { Workbench } from '../workbench';
import type { Late } from './late';
import type { BridgeOptions } from './options';
import type { TmuxServers } from './tmux-servers';

export interface PhoneParts {
  run: string;
  hub: EventHub;
  late: Late;
  servers: TmuxServers;
  sends: SendService;
  durable: DurableService;
  chats: PaneChats;
  nerve: { link: NerveLink; apiFile: string | null };
  sessions: Sessions;
  /** This machine's list, read and resume ({@link sessionsHere}). */
  sessionActions: SessionActions;
  workbench: Workbench;
  push: PushService;
  devices: DeviceStore;
  auth: AuthDeps;
  audit: (entry: Record<string, unknown>) => void;
}

/**
 * A pane's frames as they change: a crew member's pane (`@<member>/…`) from its member, else
 * from this machine's tracker; null when unknown.
 */
export function screenWatcher(late: Late, servers: TmuxServers) {
  return (id: string, send: (f: PaneScreen) => void): (() => void) | null => (late.crew?.owns(id) ? late.crew.phone.watchScreen(id, send) : servers.watchScreen(id, send));
}

/** What the phone reaches: the HTTP app (every `/api` route, the web app's files) and the events socket. */
export function servePhone(o: BridgeOptions, p: PhoneParts): { app: Hono; events: ReturnType<typeof eventsSocket> } {
  const { hub, late, servers, sends, push, devices, auth } = p;
  // On a lead, a member's pane (`@<member>/…`) is acted on by its member (crew/phone-sends.ts).
  const sendsForPhone = phoneSends(sends, () => late.crew);
  const durableForPhone = phoneDurable(p.durable, () => late.crew?.phone ?? null);
  const chatsForPhone = phoneChats(p.chats, () => late.crew?.phone ?? null);
  const app = createApp({
    version: o.version,
    run: p.run,
    webDir: o.webDir,
    hosts: () => late.hosts,
    snapshot: () => hub.snapshot(),
    pane: (id) => hub.panes.get(id),
    markSeen: (id): Pane | undefined => {
      // A member's pane is marked read on its member's own phone; the lead's phone only opens it.
      if (late.crew?.owns(id)) return hub.panes.get(id);
      const at = servers.locate(id);
      at?.tracker.markSeen(at.tmuxId);
      return at ? hub.panes.get(id) : undefined;
    },
    audit: p.audit,
    publicUrl: () => late.publicUrl,
    sends: sendsForPhone,
    knownRequest: (requestId) => sends.known(requestId),
    ready: () => late.ready,
    durable: durableForPhone,
    auth,
    devices,
    workbench: p.workbench,
    chats: chatsForPhone,
    push,
    walky: () => late.walky?.phone ?? null,
    crew: () => late.crew?.view() ?? { crew: null },
    crewAdmin: crewAdmin(o.stateDir, () => late.crew),
    nerve: p.nerve,
    // On a lead, every machine's sessions; a member's read and resumed on it (through the crew's calls).
    sessions: sessionRoutes({
      sessions: p.sessions,
      actions: p.sessionActions,
      crew: () => {
        const crew = late.crew;
        const v = crew?.view();
        if (!crew || !v || v.crew === null || v.role !== 'lead') return null;
        const self = v.machines.find((m) => m.you)?.name ?? o.machine;
        const members = v.machines.filter((m) => !m.you).map((m) => ({ name: m.name, reachable: m.reachable }));
        return crewSessions({ self, members: () => members, local: p.sessionActions, remote: crew.phone.sessions });
      },
    }),
  });
  const events = eventsSocket({
    hub,
    ready: () => late.ready,
    hosts: () => late.hosts,
    watchScreen: screenWatcher(late, servers),
    authorize: (req) => {
      const h = (name: string) => (typeof req.headers[name] === 'string' ? req.headers[name] : undefined);
      return authorize(auth, { authorization: h('authorization'), cookie: h('cookie'), login: h('tailscale-user-login'), ...peerOf(req.socket) });
    },
    watchChat: (id, send) => chatsForPhone.watch(id, send),
  });
  devices.on('revoked', (id) => events.closeDevice(id));
  devices.on('changed', (id) => events.deviceChanged(id));
  devices.on('revoked', (id) => void push.forgetDevice(id));
  return { app, events };
}

/** This machine's sessions as its own routes and, on a member, its lead act on them (resume opens its window through New pane's own opener). */
export function sessionsHere(o: BridgeOptions, sessions: Sessions, workbench: Workbench, servers: TmuxServers): SessionActions {
  return sessionActions({
    sessions,
    configDir: o.configDir ?? null,
    env: o.env ?? process.env,
    opener: {
      sessions: workbench.tmuxSessions,
      command: (server, args) => servers.command(server, args, 'sessions'),
      socketDir: o.socketDir,
      env: o.env ?? process.env,
      rescan: () => servers.discovery.rescan(),
    },
  });
}
