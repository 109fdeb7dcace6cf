import { join } from 'node:path';
import type { BridgeOptions } from '../../bridge/src/bridge';
import { webDir } from '../../bridge/src/commands/paths';

/**
 * Options for a bridge under test: port 0, loopback, and eyes only for the tmux servers under
 * `tmuxTmpDir` (a private server's TMUX_TMPDIR), state in `stateDir`.
 *
 * @example
 * await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
 */
export function testBridgeOptions(tmuxTmpDir: string, stateDir: string, extra: Partial<BridgeOptions> = {}): BridgeOptions {
  return {
    stateDir,
    port: 0,
    host: '127.0.0.1',
    allowedHosts: [],
    machine: 'testbox',
    socketDir: join(tmuxTmpDir, `tmux-${process.getuid?.() ?? 0}`),
    redact: true,
    webDir,
    version: 'test',
    env: { ...process.env, TMUX_TMPDIR: tmuxTmpDir },
    ...extra,
  };
}
