import { rm } from 'node:fs/promises';
import { startBridge, type Bridge } from '../bridge';
import type { PushConfig } from '../push';
import { writeFileAtomic } from '../config';
import { bridgeOptions, configOrThrow } from './config';
import { runFile, version } from './paths';
import { pairingLines } from './devices';
import { qrCode } from './qr';

export interface ServeOptions {
  port?: number;
  /** Print the QR code of the URL (on by default for a terminal). */
  qr?: boolean;
  log?: (line: string) => void;
  /** Someone watches the output (default: stdout is a terminal): only then is a pairing offer printed. */
  interactive?: boolean;
  /**
   * Push settings over the configuration's, given in code only (the soak's bridge pushes to a
   * stand-in push service on loopback: its CA and `loopbackEndpoints`); no flag reaches it.
   */
  push?: PushConfig;
}

/**
 * Whether a person reads what `serve` prints: a terminal, and not a systemd service (whose
 * output goes to the journal even when the unit gives it a terminal).
 */
export function attended(terminal: boolean, env: NodeJS.ProcessEnv): boolean {
  return terminal && !env['INVOCATION_ID'] && !env['JOURNAL_STREAM'];
}

/** `collie serve`: the bridge in the foreground until SIGINT or SIGTERM. */
export async function serve(opts: ServeOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<Bridge> {
  const log = opts.log ?? ((l: string) => process.stdout.write(`${l}\n`));
  const config = configOrThrow(env);
  const options = bridgeOptions(config, { port: opts.port, env });
  const bridge = await startBridge(opts.push ? { ...options, push: { ...options.push, ...opts.push } } : options);
  await writeFileAtomic(runFile(config.stateDir), JSON.stringify({ pid: process.pid, port: bridge.port, url: bridge.url, run: bridge.hub.run }), 0o600);
  log(`Collie bridge ${version} listening on ${bridge.url}`);
  log(`state: ${config.stateDir}   tmux sockets: ${config.tmuxSocketDir}`);
  log('Pair a device: run collie pair (a one-time link, its QR code and a code)');
  // Like a notebook server's tokened URL: opening the printed link pairs that browser at once.
  // Only for someone at a terminal: a log file or the journal would keep a full-rights offer
  // for anyone who reads them.
  if (attended(opts.interactive ?? process.stdout.isTTY, env)) {
    const pairing = pairingLines(await bridge.devices.createOffer(), bridge.url, bridge.publicUrl, bridge.port);
    for (const line of pairing.lines) log(line);
    if (pairing.qr && (opts.qr ?? process.stdout.isTTY)) log(await qrCode(pairing.qr));
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log(`${signal}: stopping the bridge`);
    await bridge.stop();
    await rm(runFile(config.stateDir), { force: true });
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  return bridge;
}
