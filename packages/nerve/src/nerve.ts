/**
 * Nerve's composition root: config (reloaded on change, no restart), the store, the gateway,
 * the API and, when configured, the durable agent Collie attaches to.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { loadConfig, type NerveConfig } from './config/config';
import { attachDurable } from './durable/attach';
import { Gateway } from './gateway/gateway';
import { loadToken, writeApiFile } from './http/credential';
import { serveApi } from './http/serve';
import { openDb } from './store/db';
import { Store } from './store/store';

export interface StartOptions {
  configFile: string;
  /** Used when config.yaml names no state_dir. */
  defaultStateDir: string;
  verbose?: boolean;
  log?(line: string): void;
}

export interface Nerve {
  url: string;
  port: number;
  gateway: Gateway;
  /** Where the durable agent listens, when attached. */
  durable: string | null;
  /** The API's bearer token, and the file that holds it with the URL (`<state_dir>/api.json`). */
  token: string;
  apiFile: string;
  config(): NerveConfig;
  close(): Promise<void>;
}

export async function startNerve(o: StartOptions): Promise<Nerve> {
  const log = o.log ?? (() => undefined);
  let config = loadConfig(o.configFile);
  const stateDir = resolve(config.state_dir ?? o.defaultStateDir);
  const store = new Store(openDb(join(stateDir, 'nerve.db')));
  const gateway = new Gateway({
    store,
    cwd: config.cwd ?? process.cwd(),
    model: config.model,
    env: { ...process.env, ...config.env },
    ...(config.claude_path ? { claudePath: config.claude_path } : {}),
    settings: () => config.agent.subagents,
    idleReapMinutes: () => config.idle_reap_minutes,
    log: (l) => (o.verbose || !l.startsWith('agents[') ? log(l) : undefined),
  });
  let watcher: FSWatcher | null = null;
  try {
    // Every agent.subagents key applies without a restart; a bad edit keeps the last good config.
    // The folder is watched, not the file: an editor that saves by rename replaces the file.
    const name = basename(o.configFile);
    watcher = watch(dirname(resolve(o.configFile)), (_event, changed) => {
      if (changed !== null && changed !== name) return;
      try {
        config = loadConfig(o.configFile);
        log('nerve: config reloaded');
      } catch (err) {
        log(`nerve: config not reloaded: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
  } catch {
    watcher = null;
  }
  const token = loadToken(stateDir);
  const api = await serveApi(gateway, config.listen.host, config.listen.port, token);
  const apiFile = writeApiFile(stateDir, api.url, token);
  const durable = config.durable_socket ? await attachDurable(gateway, config.durable_socket) : null;
  return {
    url: api.url,
    port: api.port,
    gateway,
    durable: durable?.listening.address ?? null,
    token,
    apiFile,
    config: () => config,
    close: async () => {
      watcher?.close();
      await durable?.close();
      await api.close();
      await gateway.close();
      store.db.close();
    },
  };
}
