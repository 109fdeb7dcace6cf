/**
 * `collie demo` (bundled as dist/demo.mjs): the demo's tmux server and real Claude panes,
 * plus a bridge in this process when none runs yet, so the dashboard is live at once. The
 * durable agent `desk` (packages/durable-sdk/examples/desk) is attached beside the panes.
 */
import { join } from 'node:path';
import { startBridge, type Bridge } from '../../bridge/src/bridge';
import { bridgeOptions, configOrThrow } from '../../bridge/src/commands/config';
import { status } from '../../bridge/src/commands/daemon';
import { attachDemoDesk, type DemoDesk } from './demo-desk';
import { durableAdd, durableRemove } from '../../bridge/src/commands/durable';
import { pair } from '../../bridge/src/commands/devices';
import { qrCode } from '../../bridge/src/commands/qr';
import { runDemo } from './demo';
import { startDemoNerve, type DemoNerve } from './demo-nerve';

/** A fresh pairing link (and its QR code when a phone address is known), from whichever bridge runs. */
async function printPairing(log: (line: string) => void): Promise<void> {
  const p = await pair(process.env);
  for (const line of p.lines) log(line);
  if (p.qr && process.stdout.isTTY) log(await qrCode(p.qr));
}

export async function demo(opts: { port?: number } = {}): Promise<void> {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const config = configOrThrow(process.env);
  const running = await status(process.env);
  let bridge: Bridge | null = null;
  let desk: DemoDesk | null = null;
  let nerve: DemoNerve | null = null;
  await runDemo({
    log,
    tmpDir: config.tmuxTmpdir,
    // New offers the demo's agents (they are not on PATH): launchers in the bridge's config dir.
    configDir: config.configDir,
    ready: async () => {
      desk = await attachDemoDesk(process.env, log);
      try {
        // Nerve's default state dir, so the running bridge finds its API (the roster views).
        nerve = await startDemoNerve(join(config.stateDir, 'demo-nerve'), undefined, join(config.stateDir, 'nerve'));
        log(await durableAdd('nerve', nerve.nerve.durable ?? '', null, process.env));
        log(`Nerve (a live roster of background agents): ${nerve.nerve.url}/api/sessions/${nerve.sessionId}/agents`);
      } catch (err) {
        log(`Nerve is not attached: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (running.running && running.info) {
        log(`\nThe running bridge shows the demo: ${running.info.url}`);
        await printPairing(log);
        return;
      }
      bridge = await startBridge(bridgeOptions(config, { port: opts.port }));
      log(`\nOpen the dashboard: ${bridge.url}`);
      await printPairing(log);
    },
  });
  await (desk as DemoDesk | null)?.stop();
  if (nerve) {
    await durableRemove('nerve', process.env).catch(() => undefined);
    await (nerve as DemoNerve).stop();
  }
  await (bridge as Bridge | null)?.stop();
}
