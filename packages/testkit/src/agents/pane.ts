import { submitTyped } from './submit';
import { randomBytes } from 'node:crypto';
import { exited } from '../process-exit';
import type { TmuxServer } from '../tmux';
import type { ScreenPredicate } from '../wait';

/** A real agent TUI in a tmux pane of a private server. */
export interface AgentPane extends AsyncDisposable {
  readonly paneId: string;
  readonly session: string;
  /** The directory the agent runs in. */
  readonly cwd: string;
  /** Milliseconds from launch until the agent's input was ready. */
  readonly startMs: number;
  capture(opts?: { escapes?: boolean }): Promise<string>;
  waitForScreen(predicate: ScreenPredicate, timeoutMs?: number): Promise<string>;
  /** Types `text` literally, waits until the screen shows it, presses the submit key. */
  submit(text: string): Promise<void>;
  /**
   * Presses tmux keys until the screen shows `until`, pressing again while it does not (a
   * TUI may drop keys that arrive while it redraws).
   */
  press(keys: string | string[], until: ScreenPredicate, timeoutMs?: number): Promise<string>;
  /** Kills the pane and the agent, then runs the launcher's cleanup. Safe to call twice. */
  kill(): Promise<void>;
}

/** How to launch one agent in a pane. */
export interface AgentLaunch {
  /** argv of the agent, run without a shell. */
  cmd: string[];
  cwd: string;
  env: Record<string, string>;
  /** The screen once the agent takes input. */
  ready: ScreenPredicate;
  readyTimeoutMs?: number;
  /** Session name; created if missing (else a new window in it). Default: `<prefix>-<random>`. */
  session?: string;
  prefix: string;
  width?: number;
  height?: number;
  /** Runs after the agent is gone (remove config dirs). */
  cleanup(): Promise<void>;
}

/**
 * Variables that would point an agent at another service or make it believe it runs in CI or
 * inside another agent's session; the pane starts without them (`env -u`).
 */
const UNSET = ['CI', 'CONTINUOUS_INTEGRATION', 'GITHUB_ACTIONS', 'BUILD_NUMBER', 'RUN_ID', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'];

/**
 * Starts `launch.cmd` in a pane of `tmux` and waits until its screen is ready. The agent's
 * process is killed by PID on `kill()`: several agents outlive their pane when tmux hangs up.
 */
export async function startAgentPane(tmux: TmuxServer, launch: AgentLaunch): Promise<AgentPane> {
  const session = launch.session ?? `${launch.prefix}-${randomBytes(3).toString('hex')}`;
  let paneId = '';
  let pid = 0;
  const stop = async () => {
    if (paneId) await tmux.killPane(paneId).catch(() => undefined);
    if (pid > 0 && !(await exited(pid, 3_000))) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await launch.cleanup();
  };
  try {
    const cmd = ['env', ...UNSET.flatMap((v) => ['-u', v]), ...launch.cmd];
    const env = { COLORTERM: 'truecolor', ...launch.env };
    const started = Date.now();
    const exists = await tmux.tmux('has-session', '-t', `=${session}`).then(
      () => true,
      () => false,
    );
    paneId = exists
      ? await tmux.newWindow(session, { cmd, cwd: launch.cwd, env })
      : await tmux.newSession(session, { cmd, cwd: launch.cwd, env, width: launch.width ?? 120, height: launch.height ?? 40 });
    pid = Number((await tmux.tmux('display-message', '-p', '-t', paneId, '#{pane_pid}')).trim());
    await tmux.waitForScreen(paneId, launch.ready, launch.readyTimeoutMs ?? 60_000);
    const startMs = Date.now() - started;
    let killed = false;
    const kill = async () => {
      if (killed) return;
      killed = true;
      await stop();
    };
    return {
      paneId,
      session,
      cwd: launch.cwd,
      startMs,
      capture: (o) => tmux.capture(paneId, o),
      waitForScreen: (p, t) => tmux.waitForScreen(paneId, p, t),
      submit: (text) => submitTyped(tmux, paneId, text),
      async press(keys, until, timeoutMs = 10_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          await tmux.sendKeys(paneId, ...(typeof keys === 'string' ? [keys] : keys));
          const left = deadline - Date.now();
          try {
            return await tmux.waitForScreen(paneId, until, Math.min(left, 1_000));
          } catch (err) {
            if (left <= 1_000) throw err;
          }
        }
      },
      kill,
      [Symbol.asyncDispose]: kill,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
