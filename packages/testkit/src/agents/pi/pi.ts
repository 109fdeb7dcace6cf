import { join } from 'node:path';
import type { ChatApi } from '../openai-chat/server';
import { startAgentPane, withAgentDirs, type AgentPane } from '../pane';
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
  return withAgentDirs('pi', { home: opts.home, cwd: opts.cwd }, async ({ home, cwd, remove }) => {
    const agentDir = join(home, 'agent');
    await writePiConfig(agentDir, { baseUrl: api.url, extensions: opts.extensions });
    return startAgentPane(tmux, {
      prefix: 'pi',
      cmd: [process.execPath, join(piPackageDir(), 'dist', 'cli.js'), ...(opts.args ?? [])],
      cwd,
      env: { HOME: home, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' },
      ready: piReady,
      readyTimeoutMs: opts.readyTimeoutMs ?? 120_000,
      session: opts.session,
      width: opts.width,
      height: opts.height,
      cleanup: remove,
    });
  });
}
