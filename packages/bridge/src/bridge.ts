import { randomBytes } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import type { Pane, PaneScreen, Server } from '@collie/protocol';
import { AuditFlood, appendAudit, auditWritten, ensureStateDir } from './config';
import { EventHub, SENDS_PER_PANE } from './events/hub';
import { createApp } from './http/app';
import { eventsSocket } from './http/events-socket';
import { allowedHosts } from './http/security';
import { Discovery, formatLiteral, type TmuxServer } from './mux/tmux';
import { PaneTracker } from './panes/pane-tracker';
import { ApiError } from './http/api-error';
import { harnessOfPane, labelOfPane } from './panes/pane-facts';
import { openTokenStore } from './panes/token-file';
import { makeRedactor } from './redact';
import { UnreadScreens, unreadHook } from './unread';
import { ReceiptStore } from './send/receipt-store';
import { SendService } from './send/send-service';
import { startDurable, type DurableService } from './durable';
import { startNerveLink } from './nerve';
import { startWalky, type Walky } from './walky';
import { DeviceStore, publicUrlFor, serveDevicesSocket } from './devices';
import { authorize, peerOf } from './http/auth';
import { startWorkbench } from './workbench';
import { startPaneChats } from './transcripts';
import { screenLimit } from './usage/screen-limit';
import { startPush, type PushConfig, type PushService } from './push';
import { startCrew, type Crew } from './crew';
import { phoneSends } from './crew/phone-sends';
import { phoneChats, phoneDurable } from './crew/lead-phone';
import { crewAdmin } from './crew/admin-phone';
import { defaultRoots, startSessions, type StoreRoots } from './sessions';
import { sessionRoutes } from './sessions/routes';
import { sessionActions } from './sessions/actions';
import { crewSessions } from './sessions/crew-sessions';

export interface BridgeOptions {
  stateDir: string;
  /** 0 picks a free port. */
  port: number;
  /** A loopback address; config refuses anything else. */
  host: string;
  allowedHosts: readonly string[];
  machine: string;
  /** `<TMUX_TMPDIR>/tmux-<uid>`. */
  socketDir: string;
  redact: boolean;
  /** How long a send may be held for its pane (default 10 minutes). */
  holdMs?: number;
  webDir: string;
  version: string;
  env?: NodeJS.ProcessEnv;
  /** The config dir, where sources.json lists durable agents; without it, none are attached. */
  configDir?: string;
  /** Reconnect back-off of durable agents (ms); tests shorten it. */
  durableBackoff?: { first: number; max: number; mismatch: number };
  /** Walky talky: `off` refuses every message for this machine's panes; the rest are test knobs. */
  walky?: { off?: boolean; queueMs?: number; waitMs?: number };
  /**
   * A clock a test controls, for walky's queue limit (2 minutes) and its log. The wall clock
   * otherwise. (The send protocol's hold keeps the wall clock: its pane trackers read it too.)
   */
  clock?: { now: () => number; setTimer: (fn: () => void, ms: number) => () => void };
  /** `COLLIE_PUBLIC_URL`: the address a phone opens (else tailscale serve's, when it serves this port). */
  publicUrl?: string | null;
  /** `COLLIE_TRUSTED_USER`: a `Tailscale-User-Login` let in without a device, from the proxy's user only. */
  trustedUser?: string | null;
  /** `COLLIE_TRUSTED_PROXY_USER` as a uid: whose connections may carry that login (default 0, root, as tailscaled runs). */
  trustedProxyUid?: number;
  /** Web Push: the debounce, reminder, presence window (`COLLIE_PUSH_*`); tests add their push service's CA. */
  push?: PushConfig;
  /** Crew test knobs: the member's reconnect back-off and its signing clock. */
  crew?: { backoff?: { first: number; max: number }; now?: () => number; walkyMachineMs?: number };
  /** Nerve's api.json (`COLLIE_NERVE_API`); default `<stateDir>/nerve/api.json`, Nerve's own default; null: no Nerve. */
  nerveApiFile?: string | null;
  /** Reconnect back-off to Nerve's event socket (ms); tests shorten it. */
  nerveBackoff?: { first: number; max: number };
  /** Where each agent keeps its sessions (the Sessions page); default from `env`'s HOME and each agent's variables. */
  sessionRoots?: Partial<StoreRoots>;
}

export interface Bridge {
  url: string;
  port: number;
  hub: EventHub;
  durable: DurableService;
  /** The paired devices; `devices.createOffer()` makes a pairing link and code. */
  devices: DeviceStore;
  /** The address a phone can open, when one is known. */
  publicUrl: string | null;
  push: PushService;
  crew: Crew;
  /** Whether a send to this pane waits for its usage-limit reset (for the "Ready again" push). */
  waitsForReset(paneId: string): boolean;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Start the daemon: discovery, one tracker per tmux server, the hub, HTTP and WebSocket. */
export async function startBridge(o: BridgeOptions): Promise<Bridge> {
  await ensureStateDir(o.stateDir);
  const redact = makeRedactor(o.redact);
  const run = randomBytes(6).toString('hex');
  const hub = new EventHub(o.machine, run);
  const tokens = await openTokenStore(o.stateDir);
  const onRead = unreadHook(await UnreadScreens.open(o.stateDir, redact));
  const trackers = new Map<string, PaneTracker>();
  const trackersStarted: Promise<void>[] = [];
  const discovery = new Discovery({ socketDir: o.socketDir, env: o.env ?? process.env });

  const serverView = (s: TmuxServer): Server => ({ name: s.name, socket: s.socketPath, pid: s.info?.pid ?? null, connected: s.connected });

  discovery.on('added', (server) => {
    const tracker = new PaneTracker({
      server,
      hub,
      tokens: tokens.store,
      machine: o.machine,
      redact,
      harnessOf: harnessOfPane,
      labelOf: labelOfPane,
      onRead: (harness, pid, reading, screen, id) => {
        onRead(harness, pid, reading, screen);
        // A usage limit the agent shows on its screen (Claude Code's footer): the pane's usage says so.
        hub.setScreenLimit(id, screenLimit(harness, screen, Date.now()));
      },
    });
    trackers.set(server.name, tracker);
    hub.publish({ type: 'server.added', server: serverView(server) });
    trackersStarted.push(tracker.start().then(() => tokens.save()));
  });
  discovery.on('removed', (server) => {
    trackers.get(server.name)?.stop();
    trackers.delete(server.name);
    hub.publish({ type: 'server.removed', name: server.name });
  });
  const offTokens = hub.subscribe(() => tokens.save());

  /** `<server>:<%id>` → its tracker and tmux id. */
  const locate = (id: string): { tracker: PaneTracker; tmuxId: string } | null => {
    const at = id.lastIndexOf(':');
    const tracker = trackers.get(id.slice(0, at));
    const tmuxId = id.slice(at + 1);
    return at > 0 && tracker?.has(tmuxId) ? { tracker, tmuxId } : null;
  };

  const bufferDir = join(o.stateDir, 'sends');
  const store = await ReceiptStore.open(o.stateDir);
  const sends = new SendService({ store, hub, locate: (id) => locate(id), redact, holdMs: o.holdMs ?? 10 * 60_000, bufferDir });
  // The phone sees sends of earlier runs: every one not final, and the latest receipts per pane.
  for (const receipt of store.latest(SENDS_PER_PANE)) hub.publish({ type: 'send.updated', receipt });

  const durable = await startDurable({
    hub,
    stateDir: o.stateDir,
    configDir: o.configDir ?? null,
    machine: o.machine,
    redact,
    ...(o.durableBackoff ? { backoff: o.durableBackoff } : {}),
  });

  const nerveApiFile = o.nerveApiFile === undefined ? join(o.stateDir, 'nerve', 'api.json') : o.nerveApiFile;
  const nerve = startNerveLink({ hub, apiFile: nerveApiFile, ...(o.nerveBackoff ? { backoff: o.nerveBackoff } : {}) });

  const chats = startPaneChats({
    panes: hub.panes,
    subscribe: (l) => hub.subscribe(l),
    redact,
    // Every agent pane's usage, from the transcript its chat follows (docs/api.md: Pane.usage).
    usage: (id, usage) => hub.setUsage(id, usage),
    all: () => hub.panes.values(),
  });
  const sessionStores = startSessions({
    roots: { ...defaultRoots(o.env ?? process.env), ...o.sessionRoots },
    redact,
    panes: () => [...hub.panes.values()],
    publish: (c) => hub.publish(c),
    subscribe: (l) => hub.subscribe(l),
    stateDir: o.stateDir,
    servers: () => [...trackers.keys()],
  });

  let hosts: ReadonlySet<string> = new Set();
  // The phone's "Pair another device" links to it once known (after listen).
  let publicUrlRef: string | null = null;
  // Walky starts once the panes are known; its phone routes answer `starting` until then.
  let walkyRef: Walky | null = null;
  // A phone that reconnects while discovery runs would read every pane as gone: wait for it.
  let ready = false;
  // Refused requests come in floods (any web page can send them): counted, not each written.
  const auditFlood = new AuditFlood({ write: (entry) => void appendAudit(o.stateDir, entry).catch(() => undefined) });
  const audit = (entry: Record<string, unknown>) => auditFlood.offer(entry);
  const devices = await DeviceStore.open(o.stateDir, {}, (l) => process.stderr.write(`collie: ${l}\n`));
  const auth = { devices, trustedUser: o.trustedUser ?? null, trustedProxyUid: o.trustedProxyUid ?? 0 };
  // The running crew, once started (below); a member's pane and durable agent go to it.
  let crewRef: Crew | null = null;
  const workbench = await startWorkbench({
    stateDir: o.stateDir,
    redact,
    // A crew member's pane (`@<member>/…`) has its files on the member: never read them here.
    pane: (id) => (crewRef?.owns(id) ? undefined : hub.panes.get(id)),
    send: (id, text, requestId, summary) => sends.send(id, text, requestId, {}, summary),
    configDir: o.configDir ?? null,
    mux: (id) => {
      const at = locate(id);
      return at ? { tmuxId: at.tmuxId, command: (args) => at.tracker.command(args) } : null;
    },
    panes: () => [...hub.panes.values()],
    setName: async (id, name) => {
      const at = locate(id);
      return at ? at.tracker.setName(at.tmuxId, name) : false;
    },
    watch: (onEvent) => hub.subscribe(() => onEvent()),
    ...(o.env ? { env: o.env } : {}),
    sessions: async () => {
      const out: { server: string; session: string }[] = [];
      for (const [server, tracker] of trackers) {
        const list = await tracker.sessions().catch(() => []);
        for (const s of list) if (s.name) out.push({ server, session: s.name });
      }
      return out;
    },
    open: async (server, session, folder, argv) => {
      const tracker = trackers.get(server);
      if (!tracker) throw new ApiError('not_found', `new: no tmux server '${server}'`);
      // The session by its id: a name is matched by tmux as a pattern or a prefix.
      const sessionId = session === null ? null : (await tracker.sessions()).find((s) => s.name === session)?.id;
      if (sessionId === undefined) throw new ApiError('not_found', `new: no session '${String(session).slice(0, 100)}' on ${server}`);
      // tmux expands formats in -c (`#(…)` in a folder's name would run): the folder goes as a literal.
      // argv as separate arguments: tmux runs it without a shell, so a folder or flag is never re-split.
      const dir = ['-c', formatLiteral(folder)];
      const where = sessionId === null ? ['new-session', '-d', '-P', '-F', '#{pane_id}', ...dir, '--'] : ['new-window', '-d', '-P', '-F', '#{pane_id}', '-t', `${sessionId}:`, ...dir, '--'];
      const [id] = await tracker.command([...where, ...argv]);
      if (!id || !/^%\d+$/.test(id)) throw new ApiError('internal', `new: tmux answered '${String(id).slice(0, 100)}' for the new pane`);
      return id;
    },
  });
  // On a lead, a member's pane (`@<member>/…`) is acted on by its member (crew/phone-sends.ts).
  const sendsForPhone = phoneSends(sends, () => crewRef);
  const durableForPhone = phoneDurable(durable, () => crewRef?.phone ?? null);
  const chatsForPhone = phoneChats(chats, () => crewRef?.phone ?? null);
  const watchScreen = (id: string, send: (f: PaneScreen) => void): (() => void) | null => {
    if (crewRef?.owns(id)) return crewRef.phone.watchScreen(id, send);
    const at = locate(id);
    if (!at) return null;
    const onFrame = (f: PaneScreen) => f.id === id && send(f);
    at.tracker.on('frame', onFrame);
    const first = at.tracker.currentFrame(at.tmuxId);
    if (first) send(first);
    const unwatch = at.tracker.watchScreen(at.tmuxId);
    return () => {
      unwatch();
      at.tracker.off('frame', onFrame);
    };
  };
  const push = await startPush({ stateDir: o.stateDir, hub, machine: o.machine, redact, durable, toLead: () => crewRef?.link()?.connected === true, waitsForReset: (id, at) => sends.waitsForReset(id, at), ...(o.push ? { config: o.push } : {}) });
  // This machine's sessions: its own routes' and, on a member, its lead's (resume opens its window through New pane's own opener).
  const sessionsHere = sessionActions({
    sessions: sessionStores,
    configDir: o.configDir ?? null,
    env: o.env ?? process.env,
    opener: {
      sessions: workbench.tmuxSessions,
      command: async (server, args) => {
        const tracker = trackers.get(server);
        if (!tracker) throw new ApiError('not_found', `sessions: no tmux server '${server}'`);
        return tracker.command(args);
      },
      socketDir: o.socketDir,
      env: o.env ?? process.env,
      rescan: () => discovery.rescan(),
    },
  });
  const app = createApp({
    version: o.version,
    run,
    webDir: o.webDir,
    hosts: () => hosts,
    snapshot: () => hub.snapshot(),
    pane: (id) => hub.panes.get(id),
    markSeen: (id): Pane | undefined => {
      // A member's pane is marked read on its member's own phone; the lead's phone only opens it.
      if (crewRef?.owns(id)) return hub.panes.get(id);
      const at = locate(id);
      at?.tracker.markSeen(at.tmuxId);
      return at ? hub.panes.get(id) : undefined;
    },
    audit,
    publicUrl: () => publicUrlRef,
    sends: sendsForPhone,
    knownRequest: (requestId) => sends.known(requestId),
    ready: () => ready,
    durable: durableForPhone,
    auth,
    devices,
    workbench,
    chats: chatsForPhone,
    push,
    walky: () => walkyRef?.phone ?? null,
    crew: () => crewRef?.view() ?? { crew: null },
    crewAdmin: crewAdmin(o.stateDir, () => crewRef),
    nerve: { link: nerve, apiFile: nerveApiFile },
    // On a lead, every machine's sessions; a member's read and resumed on it (through the crew's calls).
    sessions: sessionRoutes({
      sessions: sessionStores,
      actions: sessionsHere,
      crew: () => {
        const v = crewRef?.view();
        if (!crewRef || !v || v.crew === null || v.role !== 'lead') return null;
        const self = v.machines.find((m) => m.you)?.name ?? o.machine;
        const members = v.machines.filter((m) => !m.you).map((m) => ({ name: m.name, reachable: m.reachable }));
        return crewSessions({ self, members: () => members, local: sessionsHere, remote: crewRef.phone.sessions });
      },
    }),
  });
  const events = eventsSocket({
    hub,
    ready: () => ready,
    hosts: () => hosts,
    watchScreen,
    authorize: (req) => {
      const h = (name: string) => (typeof req.headers[name] === 'string' ? req.headers[name] : undefined);
      return authorize(auth, { authorization: h('authorization'), cookie: h('cookie'), login: h('tailscale-user-login'), ...peerOf(req.socket) });
    },
    watchChat: (id, send) => chatsForPhone.watch(id, send),
  });
  devices.on('revoked', (id) => events.closeDevice(id));
  devices.on('changed', (id) => events.deviceChanged(id));
  devices.on('revoked', (id) => void push.forgetDevice(id));

  const http: HttpServer = createServer(getRequestListener(app.fetch));
  http.on('upgrade', events.handleUpgrade);
  http.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    http.once('error', (err: NodeJS.ErrnoException) => {
      discovery.stop();
      void store.close();
      void durable.stop();
      void nerve.stop();
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`collie: ${o.host}:${o.port} is taken (another bridge? see \`collie status\`); set COLLIE_PORT or --port, or 0 for a free port`)
          : new Error(`collie: cannot listen on ${o.host}:${o.port}: ${err.message}`),
      );
    });
    http.listen(o.port, o.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  hosts = allowedHosts(port, o.allowedHosts);
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  const url = `http://${host}:${port}`;
  const publicUrl = (await publicUrlFor(port, o.publicUrl ?? null)).url;
  publicUrlRef = publicUrl;
  const durableStates = () => [...hub.durable.agents.values()].map((a) => ({ name: a.name, state: a.state, problem: a.problem }));
  const devicesSocket = await serveDevicesSocket(o.stateDir, { store: devices, run, url, publicUrl, audit, durable: durableStates });
  await discovery.start();
  // Sends that waited when the bridge last stopped wait again, once the panes are known.
  await Promise.allSettled(trackersStarted);
  // Walky follows its waiting messages before the send protocol resumes them.
  const walky: Walky = await startWalky({
    stateDir: o.stateDir,
    hub,
    send: (paneId, text, requestId) => sends.send(paneId, text, requestId),
    receiptOf: (requestId) => store.get(requestId)?.receipt,
    redact,
    rescan: () => {
      for (const t of trackers.values()) void t.syncStructure();
      tokens.touch();
    },
    crew: () => crewRef?.walky ?? null,
    ...(o.clock ? { now: o.clock.now, setTimer: o.clock.setTimer } : {}),
    ...o.walky,
  });
  walkyRef = walky;
  const crew = await startCrew({
    stateDir: o.stateDir,
    hub,
    sends,
    version: o.version,
    machine: o.machine,
    run,
    redact,
    // A member lends its lead's phone the same services its own phone uses.
    phone: { sends, chats, watchScreen, durable, sessions: sessionsHere },
    log: (l) => process.stderr.write(`collie: ${l}\n`),
    ...(o.crew?.backoff ? { backoff: o.crew.backoff } : {}),
    ...(o.crew?.now ? { now: o.crew.now } : {}),
    ...(o.crew?.walkyMachineMs ? { walkyMachineMs: o.crew.walkyMachineMs } : {}),
    walky: () => walkyRef?.crewHost ?? null,
    onLink: () => push.linkChanged(),
  });
  crewRef = crew;
  // The stream may have come up before crewRef was set.
  push.linkChanged();
  sends.resume();
  // Sessions that ran in panes now gone (a reboot, a crash) are offered to resume.
  await sessionStores.panesKnown();
  ready = true;

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      events.stopping();
      offTokens();
      await crew.stop();
      await walky.stop();
      sends.stop();
      chats.stop();
      sessionStores.stop();
      discovery.stop();
      for (const t of trackers.values()) t.stop();
      events.close();
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
      await tokens.flush();
      await store.close();
      await durable.stop();
      await nerve.stop();
      await devicesSocket.close();
      await devices.close();
      workbench.stop();
      await push.stop();
      auditFlood.flush();
      await auditWritten(o.stateDir);
    })());
  const waitsForReset = (paneId: string) => sends.waitsForReset(paneId);
  return { url, port, hub, durable, devices, publicUrl, push, crew, waitsForReset, stop, [Symbol.asyncDispose]: stop };
}
