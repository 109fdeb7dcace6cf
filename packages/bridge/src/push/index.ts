import { Agent } from 'node:https';
import { join } from 'node:path';
import { PUSH_PAYLOAD_MAX, paneFloodTitle, type ModelEvent, type PushAnswer, type PushPayload, type PushPrefs, type PushStatus, type PushSubscriptionJson, type PushTestResult } from '@collie/protocol';
import type { DurableService } from '../durable';
import { PushDecider } from '../durable/pushes';
import type { EventHub } from '../events/hub';
import { DurablePushes } from './durable-pushes';
import { pushEndpointProblem } from './endpoint';
import { safeLookup } from './endpoint-lookup';
import { ensureVapidKeys, pushDir } from './keys';
import { PanePushes } from './pane-pushes';
import { Presence } from './presence';
import { inQuiet } from './quiet';
import { UsagePushes } from './usage-pushes';
import { PushStore, type KeptSubscription } from './store';
import { deliver, topicOf, VapidHeaders, type PushOutcome } from './web-push';

export { ensureVapidKeys, readVapidKeys, vapidFile } from './keys';

export interface PushConfig {
  /** `COLLIE_PUSH_DELAY`: how long a pane must wait on the user before it pushes (default 30 s). */
  delayMs?: number;
  /** A question still open this long after its push gets one reminder (default 10 minutes). */
  reminderMs?: number;
  /** `COLLIE_PUSH_AWAY`: no push while a device had the app visible this recently (default 2 minutes). */
  awayMs?: number;
  /** Waits before each retry of a 429 or 5xx (default 1 s, 4 s, 15 s). */
  backoff?: number[];
  /** Trust this CA too (a test's stand-in push service on loopback). */
  ca?: string;
  /**
   * Take push endpoints on loopback (a test's stand-in push service). Set only in code by
   * tests: no config, environment or route reaches it. Otherwise an endpoint must be https on
   * a public host name that resolves to public addresses only.
   */
  loopbackEndpoints?: boolean;
}

export interface PushDeps {
  stateDir: string;
  hub: EventHub;
  machine: string;
  redact: (s: string) => string;
  durable: Pick<DurableService, 'onPush' | 'pushesRecorded'>;
  config?: PushConfig;
  log?: (line: string) => void;
  /** On a crew member: true while its stream to the lead is up (the lead then pushes this machine's panes). */
  toLead?: () => boolean;
  /** True when a send waits for the pane's usage limit to reset (scheduled sends): the reset then pushes "Ready again". */
  waitsForReset?: (paneId: string, resetsAt?: string) => boolean;
}

/** One delivery, as the bench and tests see it. */
export interface PushSent {
  payload: PushPayload;
  outcomes: PushOutcome[];
}

export interface PushService {
  status(device: string): PushStatus;
  /** Why this endpoint may not be pushed to (loopback, LAN, an IP address, a local name, not https), or null. */
  endpointProblem(endpoint: string): string | null;
  subscribe(device: string, sub: PushSubscriptionJson): Promise<boolean>;
  unsubscribe(device: string, endpoint: string): Promise<boolean>;
  setPrefs(prefs: PushPrefs): Promise<void>;
  presence(device: string): void;
  test(device: string): Promise<PushTestResult>;
  forgetDevice(device: string): Promise<void>;
  /** The member's stream to its lead came up or went down: hand pane pushes over (docs/push.md, "In a crew"). */
  linkChanged(): void;
  onSent(listener: (s: PushSent) => void): () => void;
  stop(): Promise<void>;
}

const CONCURRENCY = 32;
/** Long enough for a phone that is briefly offline; a question older than this is stale anyway. */
const ASK_TTL = 6 * 3600;

export async function startPush(o: PushDeps): Promise<PushService> {
  const c = o.config ?? {};
  const log = o.log ?? ((l: string) => void process.stderr.write(`collie: ${l}\n`));
  const { keys } = await ensureVapidKeys(o.stateDir);
  const store = await PushStore.open(o.stateDir);
  const decider = await PushDecider.openFile(join(pushDir(o.stateDir), 'pushed.json'), o.machine);
  const presence = new Presence(c.awayMs ?? 120_000);
  const loopback = c.loopbackEndpoints === true;
  const endpointProblem = (endpoint: string) => pushEndpointProblem(endpoint, { loopback });
  // Every connection's address is checked as it is made: a public name that resolves to a private address is refused.
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, lookup: safeLookup({ loopback }), ...(c.ca ? { ca: c.ca } : {}) });
  const vapid = new VapidHeaders({ subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey });
  const listeners = new Set<(s: PushSent) => void>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  const one = async (s: KeptSubscription, body: string, p: PushPayload): Promise<PushOutcome> => {
    const tag = p.tag;
    // A subscription kept from before the endpoint rule (or a file edited by hand): never sent to.
    const problem = endpointProblem(s.subscription.endpoint);
    if (problem) {
      log(`push: not sent to a subscription whose endpoint is refused: ${problem}`);
      return { ok: false, gone: false, status: null, tries: 0, message: problem };
    }
    const out = await deliver(s.subscription, body, { ttl: p.type === 'push.show' && p.kind === 'test' ? 60 : ASK_TTL, urgency: p.type === 'push.show' ? 'high' : 'normal', topic: topicOf(tag) }, { vapid, agent, backoff: c.backoff ?? [1000, 4000, 15_000], sleep, timeoutMs: 10_000, onRetry: (why, ms) => log(`push: ${p.type === 'push.show' ? 'a push' : 'a withdrawal'} (${tag}) tried again in ${ms} ms after ${why}`) });
    if (!out.ok && out.gone) {
      await store.remove(s.subscription.endpoint);
      log(`push: dropped a subscription the push service answered ${out.status}`);
    } else if (!out.ok) log(`push: a push failed after ${out.tries} tries: ${out.status ?? ''} ${out.message}`.replace('  ', ' '));
    return out;
  };
  const send = async (p: PushPayload, to: readonly KeptSubscription[] = store.all): Promise<PushOutcome[]> => {
    if (stopped || to.length === 0) return [];
    const body = JSON.stringify(p);
    if (Buffer.byteLength(body) > PUSH_PAYLOAD_MAX) throw new Error(`push: a payload of ${Buffer.byteLength(body)} bytes is over ${PUSH_PAYLOAD_MAX}`);
    const outcomes: PushOutcome[] = new Array<PushOutcome>(to.length);
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < to.length; i = next++) outcomes[i] = await one(to[i]!, body, p);
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, to.length) }, lane));
    for (const l of listeners) l({ payload: p, outcomes });
    return outcomes;
  };
  // A push goes out only once its ask is on disk as pushed (`PushDecider.flush`), pushes and
  // withdrawals in the order they were decided: a bridge killed between a push and its record
  // pushed the ask again once it was back.
  let ordered: Promise<void> = Promise.resolve();
  const fire = (p: PushPayload) => {
    ordered = ordered
      .then(() => Promise.all([decider.flush(), o.durable.pushesRecorded()]))
      .then(() => void send(p).catch((err: unknown) => log(`push: ${err instanceof Error ? err.message : String(err)}`)));
  };
  const allowed = (kind: keyof PushPrefs['kinds']) => store.prefs.kinds[kind] && !inQuiet(store.prefs.quiet, new Date());
  const show = (kind: 'blocked' | 'finished' | 'durable' | 'flood' | 'reminder' | 'limit' | 'ready' | 'context', pref: keyof PushPrefs['kinds'], s: { tag: string; title: string; body: string; url: string; answer?: PushAnswer }) => {
    // Lock-screen answers only when the user turned them on in Settings.
    const answer = s.answer && store.prefs.lockScreen ? { answer: s.answer } : {};
    if (!allowed(pref)) return false;
    fire({ type: 'push.show', v: 1, kind, tag: s.tag, title: s.title, body: s.body, url: s.url, at: Date.now(), ...answer });
    return true;
  };
  const withdraw = (tag: string) => fire({ type: 'push.withdraw', v: 1, tag, at: Date.now() });

  const panes = new PanePushes({
    delayMs: c.delayMs ?? 30_000,
    reminderMs: c.reminderMs ?? 10 * 60_000,
    now: Date.now,
    timer: (ms, run) => {
      const t = setTimeout(() => (timers.delete(t), run()), ms);
      timers.add(t);
      return () => (clearTimeout(t), timers.delete(t));
    },
    gate: (a, q, pane, now) => decider.once(a, q, pane, now),
    looking: (now) => presence.looking(now),
    allowed,
    mask: o.redact,
    show: (s) => show(s.kind, s.finished ? 'finished' : 'blocked', s),
    flood: () => show('flood', 'blocked', { tag: `flood-panes`, title: paneFloodTitle(o.machine), body: '', url: '#/' }),
    withdraw,
    // One machine pushes a pane at a time: a member's own panes go to its lead while its stream
    // is up; on the lead, a member's pane it cannot reach now is its member's to push.
    leave: (id) => {
      const member = o.hub.panes.get(id)?.member;
      return member ? !member.reachable : o.toLead?.() === true;
    },
  });
  const usage = new UsagePushes({
    now: Date.now,
    timer: (ms, run) => {
      const t = setTimeout(() => (timers.delete(t), run()), ms);
      timers.add(t);
      return () => (clearTimeout(t), timers.delete(t));
    },
    show: (s) => show(s.kind, s.kind, s),
    withdraw,
    ...(o.waitsForReset ? { waitsForReset: o.waitsForReset } : {}),
    leave: (id) => {
      const member = o.hub.panes.get(id)?.member;
      return member ? !member.reachable : o.toLead?.() === true;
    },
  });
  const durable = new DurablePushes({ show: (s) => !presence.looking(Date.now()) && show(s.kind, 'durable', s), withdraw });

  const onEvent = (e: ModelEvent) => {
    if (e.type === 'pane.added' || e.type === 'pane.updated') {
      panes.update(e.pane);
      usage.update(e.pane);
    } else if (e.type === 'pane.removed') {
      panes.removed(e.id);
      usage.removed(e.id);
    }
    else if (e.type === 'durable.conversation.updated') durable.conversation(e.conversation);
    else if (e.type === 'durable.conversation.removed') durable.removed(e.agent, e.id);
    else if (e.type === 'durable.agent.removed') durable.removed(e.name, null);
  };
  for (const p of o.hub.panes.values()) {
    panes.update(p);
    usage.update(p);
  }
  const offHub = o.hub.subscribe(onEvent);
  const offDurable = o.durable.onPush((p) => durable.decided(p));

  return {
    status: (device) => ({ publicKey: keys.publicKey, subscribed: store.ofDevice(device).length, prefs: store.prefs }),
    endpointProblem,
    subscribe: (device, sub) => store.add(device, sub, Date.now()),
    unsubscribe: (device, endpoint) => store.remove(endpoint, device),
    setPrefs: (prefs) => store.setPrefs(prefs),
    presence: (device) => presence.report(device, Date.now()),
    async test(device) {
      const outcomes = await send(
        { type: 'push.show', v: 1, kind: 'test', tag: 'test', title: 'Collie test push', body: `Pushes from ${o.machine} reach this device.`, url: '#/settings', at: Date.now() },
        store.ofDevice(device),
      );
      return { sent: outcomes.filter((x) => x.ok).length, failed: outcomes.filter((x) => !x.ok).length };
    },
    forgetDevice: async (device) => {
      presence.forget(device);
      await store.removeDevice(device);
    },
    linkChanged: () => panes.recheckAll(),
    onSent: (l) => (listeners.add(l), () => listeners.delete(l)),
    async stop() {
      stopped = true;
      offHub();
      offDurable();
      panes.stop();
      usage.stop();
      for (const t of timers) clearTimeout(t);
      agent.destroy();
      await store.flush().catch(() => undefined);
      await decider.close();
    },
  };
}
