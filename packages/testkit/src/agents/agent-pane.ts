import { submitTyped } from './submit';
import { randomBytes } from 'node:crypto';
import type { TempDir } from '../temp-dir';
import type { TmuxServer } from '../tmux';
import type { ScreenPredicate } from '../wait';
import { endProcessesWithEnv } from './leftovers';

/** A real agent TUI in a tmux pane, talking to a scripted model API. */
export interface AgentPane extends AsyncDisposable {
  readonly paneId: string;
  readonly session: string;
  /** The agent's own home (HOME and its config dir live here). */
  readonly home: string;
  readonly cwd: string;
  /** Milliseconds from launch until the agent was ready for input. */
  readonly startMs: number;
  capture(opts?: { escapes?: boolean }): Promise<string>;
  waitForScreen(predicate: ScreenPredicate, timeoutMs?: number): Promise<string>;
  /** Types `text`, waits until the input shows it, presses Enter. */
  submit(text: string): Promise<void>;
  /**
   * Presses tmux keys until the screen shows `until`, pressing again while it does not (a
   * dialog may take keys only once it has drawn).
   */
  press(keys: string | string[], until: ScreenPredicate, timeoutMs?: number): Promise<string>;
  /** Kills the pane, ends what the agent left running, removes its dirs. Safe to call twice. */
  kill(): Promise<void>;
}

/** How to start one agent. */
export interface AgentLaunch {
  tmux: TmuxServer;
  /** argv, run without a shell. */
  cmd: string[];
  env: Record<string, string>;
  /** The env entry (`NAME=value`) unique to this pane: what it leaves running is found by it. */
  marker: string;
  cwd: string;
  /** Dirs removed once the agent is gone. */
  owned: TempDir[];
  session?: string;
  sessionPrefix: string;
  width?: number;
  height?: number;
  /** The agent is ready for input. */
  ready: ScreenPredicate;
  readyTimeoutMs: number;
  /** What the agent's input box holds on a plain capture, or undefined when none is drawn. */
  inputText(screen: string): string | undefined;
}

/**
 * Variables that would make an agent believe it runs in CI or inside another agent session;
 * the pane starts without them (`env -u`).
 */
const UNSET = ['CI', 'CONTINUOUS_INTEGRATION', 'GITHUB_ACTIONS', 'BUILD_NUMBER', 'RUN_ID', 'CLAUDECODE', 'CODEX_SANDBOX', 'CODEX_THREAD_ID', 'GEMINI_CLI'];

/**
 * Starts an agent in a new window of `session` (a new session when it does not exist) and
 * waits until it is ready. On any failure everything it started is ended again.
 */
export async function startAgentPane(o: AgentLaunch): Promise<AgentPane> {
  const session = o.session ?? `${o.sessionPrefix}-${randomBytes(3).toString('hex')}`;
  const { tmux } = o;
  let paneId = '';
  let killed = false;
  const kill = async () => {
    if (killed) return;
    killed = true;
    if (paneId) await tmux.killPane(paneId).catch(() => undefined);
    await endProcessesWithEnv(o.marker);
    for (const dir of o.owned) await dir.remove();
  };
  try {
    const cmd = ['env', ...UNSET.flatMap((v) => ['-u', v]), ...o.cmd];
    const started = Date.now();
    const exists = await tmux.tmux('has-session', '-t', `=${session}`).then(() => true, () => false);
    paneId = exists
      ? await tmux.newWindow(session, { cmd, cwd: o.cwd, env: o.env })
      : await tmux.newSession(session, { cmd, cwd: o.cwd, env: o.env, width: o.width ?? 120, height: o.height ?? 40 });
    await tmux.waitForScreen(paneId, o.ready, o.readyTimeoutMs);
    const startMs = Date.now() - started;
    return {
      paneId,
      session,
      home: o.env.HOME ?? '',
      cwd: o.cwd,
      startMs,
      capture: (c) => tmux.capture(paneId, c),
      waitForScreen: (p, t) => tmux.waitForScreen(paneId, p, t),
      submit: (text) => submitTyped(tmux, paneId, text, o.inputText),
      async press(keys, until, timeoutMs = 10_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          await tmux.sendKeys(paneId, ...(typeof keys === 'string' ? [keys] : keys));
          const left = deadline - Date.now();
          try {
            return await tmux.waitForScreen(paneId, until, Math.min(left, 750));
          } catch (err) {
            if (left <= 750) throw err;
          }
        }
      },
      kill,
      [Symbol.asyncDispose]: kill,
    };
  } catch (err) {
    await kill();
    throw err;
  }
}
