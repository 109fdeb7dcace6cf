import { randomBytes } from 'node:crypto';
import { auditWritten, ensureStateDir } from './config';
import { EventHub } from './events/hub';
import { allowedHosts } from './http/security';
import { openTokenStore } from './panes/token-file';
import { makeRedactor } from './redact';
import { UnreadScreens, unreadHook } from './unread';
import { publicUrlFor, serveDevicesSocket } from './devices';
import { startPush } from './push';
import { linkNerve, startChats, startDurableAgents, startSessionStores } from './wiring/agents';
import { openDevices } from './wiring/devices';
import { lateRefs } from './wiring/late';
import { listenHttp } from './wiring/listen';
import type { Bridge, BridgeOptions } from './wiring/options';
import { screenWatcher, servePhone, sessionsHere } from './wiring/phone-app';
import { startSends } from './wiring/sends';
import { tmuxServers } from './wiring/tmux-servers';
import { startBridgeCrew, startBridgeWalky } from './wiring/walky-crew';
import { startBridgeWorkbench } from './wiring/workbench';

export type { Bridge, BridgeOptions } from './wiring/options';

/**
 * Start the daemon: discovery, one tracker per tmux server, the hub, HTTP and WebSocket. Each
 * subsystem is wired in its own file under wiring/; here, the order they start and stop in.
 */
export async function startBridge(o: BridgeOptions): Promise<Bridge> {
  await ensureStateDir(o.stateDir);
  const redact = makeRedactor(o.redact);
  const run = randomBytes(6).toString('hex');
  const hub = new EventHub(o.machine, run);
  const tokens = await openTokenStore(o.stateDir);
  const onRead = unreadHook(await UnreadScreens.open(o.stateDir, redact));
  const servers = tmuxServers({ socketDir: o.socketDir, env: o.env ?? process.env, machine: o.machine, hub, tokens, redact, onRead });
  const offTokens = hub.subscribe(() => tokens.save());

  const { store, sends } = await startSends(o, hub, redact, servers);
  const durable = await startDurableAgents(o, hub, redact);
  const nerve = linkNerve(o, hub);
  const chats = startChats(hub, redact);
  const sessionStores = startSessionStores(o, hub, redact, servers);

  // What is known only later (the address, walky, the crew, readiness), read by what starts now.
  const late = lateRefs();
  const { devices, auth, audit, auditFlood } = await openDevices(o);
  const workbench = await startBridgeWorkbench(o, { hub, redact, sends, servers, late });
  const push = await startPush({ stateDir: o.stateDir, hub, machine: o.machine, redact, durable, toLead: () => late.crew?.link()?.connected === true, waitsForReset: (id, at) => sends.waitsForReset(id, at), ...(o.push ? { config: o.push } : {}) });
  const sessionActions = sessionsHere(o, sessionStores, workbench, servers);
  const { app, events } = servePhone(o, { run, hub, late, servers, sends, durable, chats, nerve, sessions: sessionStores, sessionActions, workbench, push, devices, auth, audit });

  const { port, url, close: closeHttp } = await listenHttp(o, app, events, () => {
    servers.discovery.stop();
    void store.close();
    void durable.stop();
    void nerve.link.stop();
  });
  late.hosts = allowedHosts(port, o.allowedHosts);
  const publicUrl = (await publicUrlFor(port, o.publicUrl ?? null)).url;
  late.publicUrl = publicUrl;
  const durableStates = () => [...hub.durable.agents.values()].map((a) => ({ name: a.name, state: a.state, problem: a.problem }));
  const devicesSocket = await serveDevicesSocket(o.stateDir, { store: devices, run, url, publicUrl, audit, durable: durableStates });
  await servers.discovery.start();
  // Sends that waited when the bridge last stopped wait again, once the panes are known.
  await Promise.allSettled(servers.started);
  // Walky follows its waiting messages before the send protocol resumes them.
  const walky = await startBridgeWalky(o, { hub, redact, sends, store, servers, tokens, late });
  late.walky = walky;
  const crew = await startBridgeCrew(o, { run, hub, redact, sends, chats, durable, sessions: sessionActions, push, late, watchScreen: screenWatcher(late, servers) });
  late.crew = crew;
  // Walky receipts owed to other machines were in memory only: send them again.
  crew.walkyResend();
  // The stream may have come up before the crew was set.
  push.linkChanged();
  sends.resume();
  // Sessions that ran in panes now gone (a reboot, a crash) are offered to resume.
  await sessionStores.panesKnown();
  late.ready = true;

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
      servers.stop();
      events.close();
      await closeHttp();
      await tokens.flush();
      await store.close();
      await durable.stop();
      await nerve.link.stop();
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
