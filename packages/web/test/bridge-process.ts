import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot, untilServing } from '@collie/testkit';

/** The built bridge (`collie serve`) as its own process, so a test can SIGTERM or SIGKILL it. */
export interface BridgeProcess {
  readonly url: string;
  readonly port: number;
  /** When it printed its listening line: it has found its panes and takes phones from then on. */
  readonly readyAt: number;
  /** Sends `signal` and resolves once the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts `packages/cli/dist/collie.mjs serve` on `port` (0 picks one; pass the old port to
 * start it again where the phone looks), seeing only the tmux servers under `tmuxTmpDir`.
 */
export async function startBridgeProcess(tmuxTmpDir: string, stateDir: string, port = 0): Promise<BridgeProcess> {
  const env = { ...process.env, TMUX_TMPDIR: tmuxTmpDir, COLLIE_STATE_DIR: stateDir, COLLIE_CONFIG_DIR: join(stateDir, 'config') };
  const child: ChildProcess = spawn(process.execPath, [join(repoRoot, 'packages/cli/dist/collie.mjs'), 'serve', '--port', String(port), '--no-qr'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { url } = await untilServing(child);
  const readyAt = Date.now();
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { url, port: Number(new URL(url).port), readyAt, kill, [Symbol.asyncDispose]: () => kill('SIGKILL') };
}
