/**
 * `collie demo` (bundled as dist/demo.mjs): the demo's tmux server and real Claude panes,
 * plus a bridge in this process when none runs yet, so the dashboard is live at once.
 */
import { startBridge, type Bridge } from '../../bridge/src/bridge';
import { bridgeOptions, configOrThrow } from '../../bridge/src/commands/config';
import { status } from '../../bridge/src/commands/daemon';
import { runDemo } from './demo';

export async function demo(opts: { port?: number } = {}): Promise<void> {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const config = configOrThrow(process.env);
  const running = await status(process.env);
  let bridge: Bridge | null = null;
  await runDemo({
    log,
    tmpDir: config.tmuxTmpdir,
    ready: async () => {
      if (running.running && running.info) {
        log(`\nThe running bridge shows the demo: ${running.info.url}`);
        return;
      }
      bridge = await startBridge(bridgeOptions(config, { port: opts.port }));
      log(`\nOpen the dashboard: ${bridge.url}`);
    },
  });
  await (bridge as Bridge | null)?.stop();
}
