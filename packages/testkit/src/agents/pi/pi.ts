import { join } from 'node:path';
import type { ChatApi } from '../openai-chat/server';
import { startAgentPane, type AgentPane } from '../pane';
import { tempDir } from '../../temp-dir';
import type { TmuxServer } from '../../tmux';
import { piPackageDir, writePiConfig, type PiConfigOptions } from './config';
import { piReady } from './screen';

/** Options of {@link startPi}. */
export interface StartPiOptions {
  /** Where it runs. Default: a fresh temp dir, removed by `kill()`. */
  cwd?: string;
  session?: string;
  extensions?: PiConfigOptions['extensions'];
  width?: number;
  height?: number;
  /**
   * A `HOME` to share with another pi pane (its agent dir is `<home>/agent`): two sessions in
   * one folder then write side by side. Not removed by `kill()`. Default: its own.
   */
  home?: string;
  /** Arguments for pi (`-c` continues the folder's latest session). */
  args?: string[];
  /** Default 120 s: about 3 s on an idle machine, much longer on a loaded one. */
  readyTimeoutMs?: number;
}

/**
 * Starts the real pi TUI (`@mariozechner/pi-coding-agent`, under this Node) in a pane of
 * `tmux`, pointed at the scripted chat API `api`, with its own agent dir and HOME in a temp
 * dir, and waits until its editor is ready. `PI_OFFLINE=1` turns off update, package and
 * telemetry calls and the fd/ripgrep download.
 *
 * @example
 * await using api = await startChatApi();
 * await using pi = await startPi(tmux, api);
 * api.script(chatReply('Hello.'));
 * await pi.submit('hi');
 */
export async function startPi(tmux: TmuxServer, api: ChatApi, opts: StartPiOptions = {}): Promise<AgentPane> {
  const ownHome = opts.home === undefined ? await tempDir('collie-pi-home-') : undefined;
  const home = { path: ownHome?.path ?? opts.home ?? '', remove: async () => ownHome?.remove() };
  const ownCwd = opts.cwd === undefined ? await tempDir('collie-pi-cwd-') : undefined;
  const cwd = opts.cwd ?? ownCwd!.path;
  try {
    const agentDir = join(home.path, 'agent');
    await writePiConfig(agentDir, { baseUrl: api.url, extensions: opts.extensions });
    return await startAgentPane(tmux, {
      prefix: 'pi',
      cmd: [process.execPath, join(piPackageDir(), 'dist', 'cli.js'), ...(opts.args ?? [])],
      cwd,
      env: { HOME: home.path, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' },
      ready: piReady,
      readyTimeoutMs: opts.readyTimeoutMs ?? 120_000,
      session: opts.session,
      width: opts.width,
      height: opts.height,
      cleanup: async () => {
        await home.remove();
        await ownCwd?.remove();
      },
    });
  } catch (err) {
    await home.remove();
    await ownCwd?.remove();
    throw err;
  }
}
