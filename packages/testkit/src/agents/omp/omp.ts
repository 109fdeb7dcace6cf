import { join } from 'node:path';
import type { ChatApi } from '../openai-chat/server';
import { startAgentPane, withAgentDirs, type AgentPane } from '../pane';
import type { TmuxServer } from '../../tmux';
import { ompCommand, writeOmpConfig, type OmpConfigOptions } from './config';
import { ompReady } from './screen';

/** Options of {@link startOmp}. */
export interface StartOmpOptions {
  /** Where it runs. Default: a fresh temp dir, removed by `kill()`. */
  cwd?: string;
  session?: string;
  approvalMode?: OmpConfigOptions['approvalMode'];
  width?: number;
  height?: number;
  /** Default 120 s. */
  readyTimeoutMs?: number;
}

/**
 * Starts the real omp TUI (`@oh-my-pi/pi-coding-agent` under Bun) in a pane of `tmux`,
 * pointed at the scripted chat API `api`, with its own agent dir and HOME in a temp dir
 * ({@link writeOmpConfig}), and waits until its composer is ready. Throws with the reason when
 * omp or Bun is not installed ({@link ompCommand}).
 *
 * @example
 * await using api = await startChatApi();
 * await using omp = await startOmp(tmux, api);
 */
export async function startOmp(tmux: TmuxServer, api: ChatApi, opts: StartOmpOptions = {}): Promise<AgentPane> {
  const cmd = ompCommand();
  if ('missing' in cmd) throw new Error(`testkit: ${cmd.missing}`);
  return withAgentDirs('omp', { cwd: opts.cwd }, async ({ home, cwd, remove }) => {
    const agentDir = join(home, 'agent');
    await writeOmpConfig(agentDir, { baseUrl: api.url, approvalMode: opts.approvalMode });
    return startAgentPane(tmux, {
      prefix: 'omp',
      cmd: [cmd.bun, cmd.cli],
      cwd,
      env: { HOME: home, PI_CODING_AGENT_DIR: agentDir, OMP_SKIP_SETUP: '1', PI_NO_TITLE: '1' },
      ready: ompReady,
      readyTimeoutMs: opts.readyTimeoutMs ?? 120_000,
      session: opts.session,
      width: opts.width,
      height: opts.height,
      cleanup: remove,
    });
  });
}
