import { PushPayload, PushStatus, type PushSubscriptionJson } from '@collie/protocol';
import { testBridgeOptions, testDevice, type PushServiceStandIn, type ReceivedPush } from '@collie/testkit';
import { startBridge } from '../src/bridge';
import type { PushConfig } from '../src/push';
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
