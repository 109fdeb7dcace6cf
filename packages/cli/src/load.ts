import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The CLI bundle sits at packages/cli/dist/collie.mjs; its siblings are built beside it. */
const packages = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function load<T>(rel: string, what: string): Promise<T> {
  const file = join(packages, rel);
  if (!existsSync(file)) throw new Error(`collie: ${what} is not built (${file} is missing): run npm run build`);
  return (await import(pathToFileURL(file).href)) as T;
}

export interface BridgeCommands {
  serve(o: { port?: number; qr?: boolean }): Promise<unknown>;
  start(): Promise<unknown>;
  stop(): Promise<boolean>;
  status(): Promise<{ running: boolean; detail: string }>;
  doctor(): Promise<{ name: string; ok: boolean; detail: string }[]>;
  formatChecks(c: { name: string; ok: boolean; detail: string }[]): string;
  screen(file: string, harness?: string): Promise<string>;
  pair(env?: NodeJS.ProcessEnv, o?: { watchOnly?: boolean }): Promise<{ lines: string[]; qr: string | null; url: string; maySend: boolean; expiresAt: number }>;
  token(name: string, env?: NodeJS.ProcessEnv, o?: { watchOnly?: boolean }): Promise<{ token: string; device: { name: string; maySend: boolean }; bridge: boolean }>;
  devicesSet(name: string, o: { watchOnly?: boolean; maySend?: boolean; json?: boolean }): Promise<{ out: string; err: string; code: number }>;
  devicesList(): Promise<DeviceRow[]>;
  devicesRevoke(name: string): Promise<{ name: string }>;
  formatDevices(devices: DeviceRow[]): string;
  skill(cmd: { verb: 'sync' | 'install' | 'uninstall' | 'status'; harness?: string; dryRun?: boolean; json?: boolean; check?: boolean }): Promise<{ out: string; code: number }>;
  update(o: { dryRun?: boolean; json?: boolean }): Promise<{ out: string; code: number }>;
  durableAdd(name: string, where: string, token: string | null): Promise<string>;
  durableList(): Promise<string>;
  durableRemove(name: string): Promise<string>;
  durableRegistry(): AcpRegistry;
  pushKeys(): Promise<{ publicKey: string; file: string; created: boolean }>;
  crew(argv: readonly string[]): Promise<{ out: string; err: string; code: number }>;
}

/** sources.json as `collie durable acp` lists itself (the bridge's code); passed to the ACP bundle. */
export interface AcpRegistry {
  readonly socketDir: string;
  add(name: string, socket: string): Promise<void>;
  remove(name: string, socket: string): Promise<void>;
  watch(name: string, socket: string, gone: () => void): () => void;
}

export interface AcpCommands {
  durableAcp(o: { command: string[]; name?: string; cwd?: string; serve?: boolean }, registry: AcpRegistry): Promise<number>;
}

export interface DeviceRow {
  name: string;
  kind: 'browser' | 'token';
  maySend: boolean;
  pairedAt: number;
  lastSeen: number | null;
  id: string;
  current: boolean;
}

export const loadBridge = () => load<BridgeCommands>('bridge/dist/commands.mjs', 'the bridge');
export const loadDemo = () => load<{ demo(o: { port?: number }): Promise<void> }>('testkit/dist/demo.mjs', 'the demo');
export const loadAcp = () => load<AcpCommands>('acp-bridge/dist/acp.mjs', 'the ACP bridge');
export const loadWalky = () => load<{ main(argv: readonly string[]): Promise<void> }>('bridge/dist/walky.mjs', 'walky talky');

/** The QR code of `text` for a terminal (the bridge's bundle carries the encoder). */
export async function qrText(text: string): Promise<string> {
  const b = await load<{ qrCode(text: string): Promise<string> }>('bridge/dist/commands.mjs', 'the bridge');
  return b.qrCode(text);
}
