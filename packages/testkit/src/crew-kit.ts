/**
 * Several bridges on this machine as a crew: the real CLI, separate state dirs, loopback ports.
 *
 * @example
 * await crewCli(leadState, ['create', '--listen', `127.0.0.1:${await freePort()}`]);
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import https from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startBridge, type Bridge, type BridgeOptions } from '../../bridge/src/bridge';
import { readCrew } from '../../bridge/src/crew/store';
import { pinnedTls } from '../../bridge/src/crew/tls';
import { repoRoot } from './artifacts';
import { testBridgeOptions } from './bridge-options';
import { testDevice, type TestDevice } from './test-device';

const run = promisify(execFile);
const cli = join(repoRoot, 'packages/cli/dist/collie.mjs');

/** `collie crew …` for one machine's state dir, through the built CLI. */
export function crewCli(stateDir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string; json: unknown }> {
  return collieCli(stateDir, ['crew', ...args]);
}

/** Any `collie …` verb for one machine's state dir, through the built CLI; `json` parsed when `--json` is among the arguments. */
export async function collieCli(stateDir: string, args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string; json: unknown }> {
  const env = { ...process.env, COLLIE_STATE_DIR: stateDir, COLLIE_CONFIG_DIR: join(stateDir, 'config'), COLLIE_NO_SYSTEMD: '1', ...extraEnv };
  let out: { code: number; stdout: string; stderr: string };
  try {
    const r = await run(process.execPath, [cli, ...args], { env, timeout: 30_000 });
    out = { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    out = { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
  let json: unknown = null;
  try {
    json = args.includes('--json') ? JSON.parse(out.stdout) : null;
  } catch {
    json = null;
  }
  return { ...out, json };
}

/** A free loopback port (for a crew listener, which names its port). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** A bridge for one machine of the crew, its reconnects quick. */
export async function crewBridge(tmuxTmpDir: string, stateDir: string, machine: string, extra: Partial<BridgeOptions> = {}): Promise<Bridge & { device: TestDevice }> {
  const device = await testDevice(stateDir);
  const b = await startBridge(testBridgeOptions(tmuxTmpDir, stateDir, { machine, crew: { backoff: { first: 100, max: 1000 } }, ...extra }));
  return Object.assign(b, { device });
}

/** One raw HTTPS request to a lead's crew listener with a header the test chose (to replay or forge). */
export async function rawCrew(leadState: string, path: string, headers: Record<string, string>, method = 'GET', body = ''): Promise<{ status: number; json: unknown }> {
  if ((await readCrew(leadState))?.role !== 'lead') throw new Error('rawCrew: not a lead');
  return rawCrewAt(leadState, path, headers, method, body);
}

/** One raw HTTPS request to the crew listener of the machine at `state`, lead or member, its certificate pinned. */
export async function rawCrewAt(state: string, path: string, headers: Record<string, string>, method = 'GET', body = ''): Promise<{ status: number; json: unknown }> {
  const crew = await readCrew(state);
  if (!crew) throw new Error('rawCrewAt: not in a crew');
  const certPem = await readFile(join(state, 'crew', 'identity.crt'), 'utf8');
  const [host, port] = crew.listen.split(':');
  return new Promise((resolve, reject) => {
    const req = https.request({ host, port: Number(port), path, method, headers, agent: false, ...pinnedTls(certPem) }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? (JSON.parse(text) as unknown) : null }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
