import { mkdir, rename, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ClosedListResult, TapResult, type DurableAgent as AgentView, type Source } from '@collie/protocol';
import { DurableAgent, serve, type AgentOptions, type Listening } from '@collie/durable-sdk';
import { testBridgeOptions, testDevice } from '@collie/testkit';
import { startBridge, type Bridge } from '../src/bridge';
import type { EventHub } from '../src/events/hub';
import { until, type TestBridge } from './harness';

export type Transport = 'socket' | 'http';

/** sources.json written the way `collie durable add` writes it: a temp file renamed over. */
export async function writeSources(configDir: string, agents: Source[]): Promise<void> {
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const tmp = join(configDir, `.sources.${Math.random().toString(36).slice(2)}.tmp`);
  await writeFile(tmp, JSON.stringify({ agents }), { mode: 0o600 });
  await rename(tmp, join(configDir, 'sources.json'));
}

/** A real SDK agent served on a socket in `dir`, or on 127.0.0.1:0. */
export async function serveAgent(transport: Transport, dir: string, o: Partial<AgentOptions> = {}, name = 'desk'): Promise<{ agent: DurableAgent; on: Listening; source: Source }> {
  const agent = new DurableAgent({ runtime: name, onMessage: () => undefined, onStop: () => undefined, controls: { steer: true }, ...o });
  const on = await serve(agent, transport === 'socket' ? { socket: join(dir, `${name}.sock`) } : { port: 0 });
  return { agent, on, source: transport === 'socket' ? { name, socket: on.address } : { name, url: on.address } };
}

export const FAST = { first: 50, max: 400, mismatch: 400 };

export async function durableBridge(stateDir: string, configDir: string): Promise<TestBridge> {
  const device = await testDevice(stateDir);
  return Object.assign(await startBridge(testBridgeOptions(join(stateDir, 'no-tmux'), stateDir, { configDir, durableBackoff: FAST })), { device });
}

export function agentIn(hub: EventHub, name: string, state: AgentView['state'] = 'ready', ms = 15_000): Promise<AgentView> {
  return until(hub, `durable agent ${name} ${state}`, (h) => {
    const a = h.durable.agents.get(name);
    return a?.state === state ? a : undefined;
  }, ms);
}

export async function post(bridge: TestBridge, path: string, body: unknown): Promise<TapResult> {
  const res = await fetch(`${bridge.url}/api/durable${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: JSON.stringify(body) });
  const json = (await res.json()) as { result?: unknown; error?: unknown };
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
  return TapResult.parse(json.result);
}

export async function closedList(bridge: TestBridge, agent: string, cursor?: string): Promise<ClosedListResult> {
  const q = new URLSearchParams({ agent, ...(cursor ? { cursor } : {}) });
  return ClosedListResult.parse(await (await fetch(`${bridge.url}/api/durable/closed?${q}`, { headers: bridge.device.headers })).json());
}

/**
 * A relay in front of an agent (socket or TCP) that can swallow the answer to the next
 * `POST /answer`: the agent takes the call, the bridge never hears back ("not sure it arrived").
 */
export async function answerDropper(upstream: Source): Promise<{ source: Source; dropNext(): void; answers(): number; close(): Promise<void> }> {
  let drop = 0;
  let answers = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    const up = 'socket' in upstream ? connect(upstream.socket) : connect(Number(new URL(upstream.url).port), '127.0.0.1');
    sockets.add(up);
    let swallow = false;
    client.on('data', (d: Buffer) => {
      if (d.toString('latin1').startsWith('POST /answer')) answers++;
      if (drop > 0 && d.toString('latin1').startsWith('POST /answer')) {
        drop--;
        swallow = true;
      }
      up.write(d);
    });
    up.on('data', (d: Buffer) => (swallow ? client.destroy() : client.write(d)));
    const end = () => (client.destroy(), up.destroy());
    client.on('close', end);
    up.on('close', end);
    client.on('error', end);
    up.on('error', end);
  });
  const where = 'socket' in upstream ? `${upstream.socket}.relay` : null;
  await new Promise<void>((r) => (where ? server.listen(where, r) : server.listen(0, '127.0.0.1', r)));
  const source: Source = where ? { name: upstream.name, socket: where } : { name: upstream.name, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  return {
    source,
    dropNext: () => void drop++,
    answers: () => answers,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
