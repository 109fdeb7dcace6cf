import { PushPayload, PushStatus, type PushSubscriptionJson } from '@collie/protocol';
import { join } from 'node:path';
import { Started, startPushService, tempDir, testBridgeOptions, testDevice, type PushServiceStandIn, type ReceivedPush } from '@collie/testkit';
import { startBridge } from '../src/bridge';
import { EventHub } from '../src/events/hub';
import { startPush, type PushConfig, type PushService } from '../src/push';
import { makeRedactor } from '../src/redact';
import { agentIn, FAST, serveAgent, writeSources } from './durable-kit';
import type { TestBridge } from './harness';

/** A bridge under test whose pushes go to the stand-in push service (its CA trusted). */
export async function pushBridge(tmuxTmpDir: string, stateDir: string, service: PushServiceStandIn, push: PushConfig = {}): Promise<TestBridge> {
  const device = await testDevice(stateDir);
  return Object.assign(await startBridge(testBridgeOptions(tmuxTmpDir, stateDir, { push: { ca: service.ca, loopbackEndpoints: true, backoff: [50, 100, 200], ...push } })), { device });
}

export async function pushCall(bridge: TestBridge, path: string, body?: unknown, headers: Record<string, string> = bridge.device.headers): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${bridge.url}/api/push${path}`, body === undefined ? { headers } : { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

export async function subscribeDevice(bridge: TestBridge, sub: PushSubscriptionJson): Promise<PushStatus> {
  const r = await pushCall(bridge, '/subscribe', { subscription: sub });
  if (r.status !== 200) throw new Error(`subscribe answered ${r.status}: ${JSON.stringify(r.json)}`);
  return PushStatus.parse(r.json);
}

/** The payload of a push the stand-in decrypted, checked against the protocol's schema. */
export const payloadOf = (p: ReceivedPush): PushPayload => PushPayload.parse(p.json);

export const isShow = (p: ReceivedPush, pick: (x: Extract<PushPayload, { type: 'push.show' }>) => boolean = () => true) => {
  const x = PushPayload.safeParse(p.json);
  return x.success && x.data.type === 'push.show' && pick(x.data);
};

export const isWithdraw = (p: ReceivedPush, tag: string) => {
  const x = PushPayload.safeParse(p.json);
  return x.success && x.data.type === 'push.withdraw' && x.data.tag === tag;
};

/** The push service alone on an event hub (no bridge, no tmux): a subscribed device at the stand-in push service. */
export interface HubPush extends AsyncDisposable {
  readonly hub: EventHub;
  readonly push: PushService;
  readonly service: PushServiceStandIn;
}

export async function hubPush(o: { log?: (line: string) => void; backoff?: number[] } = {}): Promise<HubPush> {
  const state = await tempDir('collie-state');
  const service = await startPushService();
  const hub = new EventHub('testbox', 'run');
  const push = await startPush({ stateDir: state.path, hub, machine: 'testbox', redact: makeRedactor(true), durable: { onPush: () => () => undefined, pushesRecorded: async () => undefined }, config: { ca: service.ca, loopbackEndpoints: true, delayMs: 50, ...(o.backoff ? { backoff: o.backoff } : {}) }, log: o.log ?? (() => undefined) });
  const stop = async () => {
    await push.stop();
    await service[Symbol.asyncDispose]();
    await state.remove();
  };
  try {
    if (!(await push.subscribe('dev', service.subscribe()))) throw new Error('the stand-in push service refused the subscription');
  } catch (err) {
    await stop();
    throw err;
  }
  return { hub, push, service, [Symbol.asyncDispose]: stop };
}

/** A write permission a durable agent asks in the push tests. */
export const writePermission = { kind: 'permission' as const, title: 'Write notes/today.md?', options: [{ id: 'y', action: 'allow' as const, label: 'Yes' }, { id: 'n', action: 'deny' as const, label: 'No' }] };

/** A durable agent's questions on the lock screen: the agent on a socket, a bridge that follows it, its pushes to the stand-in push service, one device subscribed. */
export interface DurablePushDesk extends AsyncDisposable {
  readonly state: string;
  readonly service: PushServiceStandIn;
  readonly bridge: TestBridge;
  /** The agent as served at the start (a test that restarts it serves it again in the same dir). */
  readonly served: Awaited<ReturnType<typeof serveAgent>>;
}

export function durablePushDesk(prefix: string): Promise<DurablePushDesk> {
  const started = new Started();
  return started.guard(async () => {
    const state = started.use(await tempDir(prefix));
    const service = started.use(await startPushService());
    const config = join(state.path, 'config');
    const served = await serveAgent('socket', state.path);
    await writeSources(config, [served.source]);
    const device = await testDevice(state.path);
    const bridge: TestBridge = started.use(Object.assign(await startBridge(testBridgeOptions(join(state.path, 'no-tmux'), state.path, { configDir: config, durableBackoff: FAST, push: { ca: service.ca, loopbackEndpoints: true, backoff: [50, 100, 200] } })), { device }));
    await subscribeDevice(bridge, service.subscribe());
    await agentIn(bridge.hub, 'desk');
    return { state: state.path, service, bridge, served, [Symbol.asyncDispose]: () => started[Symbol.asyncDispose]() };
  });
}
