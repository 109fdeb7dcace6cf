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
  durableAdd(name: string, where: string, token: string | null): Promise<string>;
  durableList(): Promise<string>;
  durableRemove(name: string): Promise<string>;
}

export const loadBridge = () => load<BridgeCommands>('bridge/dist/commands.mjs', 'the bridge');
export const loadDemo = () => load<{ demo(o: { port?: number }): Promise<void> }>('testkit/dist/demo.mjs', 'the demo');
