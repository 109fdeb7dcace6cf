import type { BridgeOptions } from '../bridge';
import { loadConfig, type Config } from '../config';
import { version, webDir } from './paths';

/** The configuration, or an error that names every bad setting. Warnings go to stderr. */
export function configOrThrow(env: NodeJS.ProcessEnv, warn: (line: string) => void = (l) => void process.stderr.write(`collie: ${l}\n`)): Config {
  const loaded = loadConfig(env);
  for (const w of loaded.warnings) warn(w);
  if (!loaded.ok) throw new Error(`collie: the configuration is not usable:\n  ${loaded.errors.join('\n  ')}`);
  return loaded.config;
}

/** The bridge's options from the configuration, as `serve` and `demo` start it. */
export function bridgeOptions(config: Config, overrides: { port?: number; env?: NodeJS.ProcessEnv } = {}): BridgeOptions {
  return {
    stateDir: config.stateDir,
    port: overrides.port ?? config.port,
    host: config.host,
    allowedHosts: config.allowedHosts,
    machine: config.machine,
    socketDir: config.tmuxSocketDir,
    redact: config.redact,
    holdMs: config.holdMinutes * 60_000,
    publicUrl: config.publicUrl,
    trustedUser: config.trustedUser,
    trustedProxyUid: config.trustedProxyUid,
    ...(config.nerveApiFile ? { nerveApiFile: config.nerveApiFile } : {}),
    webDir,
    version,
    configDir: config.configDir || undefined,
    walky: { off: !config.walky },
    push: { delayMs: config.pushDelaySeconds * 1000, awayMs: config.pushAwaySeconds * 1000 },
    ...(overrides.env ? { env: overrides.env } : {}),
  };
}
