import { submitTyped, type RequestLog } from './submit';
import { randomBytes } from 'node:crypto';
import { exited } from '../process-exit';
import { CI_MARKERS, type TmuxServer } from '../tmux';
import type { ScreenPredicate } from '../wait';
import { endProcessesWithEnv } from './leftovers';
import { tempDir } from '../temp-dir';
import { processesUnder } from './process-report';

/**
 * A real agent TUI in a tmux pane of a private server, talking to a scripted model API. Every
 * agent the testkit runs (Claude Code, Codex, Gemini CLI, OpenCode, pi) is started by
 * {@link startAgentPane}; the per-agent launchers only write its config and say how to run it.
 */
export interface AgentPane extends AsyncDisposable {
  readonly paneId: string;
  readonly session: string;
  /** The agent's own HOME (its config dirs live here), or '' when the launch set none. */
  readonly home: string;
  /** The directory the agent runs in. */
  readonly cwd: string;
  /** Milliseconds from launch until the agent was ready (its input box, or the launch's `ready`). */
  readonly startMs: number;
  /**
   * The command that starts this agent again as it was started (its variables as `NAME=value`
   * words of `env`), run without a shell: `collie demo` saves it as a launcher for New.
   */
  readonly argv: readonly string[];
  capture(opts?: { escapes?: boolean }): Promise<string>;
  waitForScreen(predicate: ScreenPredicate, timeoutMs?: number): Promise<string>;
  /** Types `text`, waits until the input shows it, presses Enter ({@link submitTyped}). */
  submit(text: string): Promise<void>;
  /**
   * Presses tmux keys until the screen shows `until`, pressing again while it does not. A TUI
   * may drop keys that arrive while it redraws, and Claude Code's dialogs refuse keys for a
   * moment after they open; nothing on screen says when that ends.
   */
  press(keys: string | string[], until: ScreenPredicate, timeoutMs?: number): Promise<string>;
  /** Kills the pane, ends what the agent left running, then runs the launch's cleanup. Safe to call twice. */
  kill(): Promise<void>;
}

/** How to launch one agent in a pane. */
export interface AgentLaunch {
  /** argv of the agent, run without a shell. */
  cmd: string[];
  cwd: string;
  env: Record<string, string>;
  /** Variables to drop from the pane's environment besides {@link AGENT_UNSET} (a name set in `env` is kept). */
  unset?: readonly string[];
  /**
   * The env entry (`NAME=value`) unique to this pane: processes holding it are ended on `kill()`
   * (daemons and re-parented Node processes outlive the pane). Default: `HOME=<env.HOME>`.
   */
  marker?: string;
  /** The screen once the agent is ready. */
  ready: ScreenPredicate;
  /** Default 60 s. */
  readyTimeoutMs?: number;
  /** Session name; created if missing (else a new window in it). Default: `<prefix>-<random>`. */
  session?: string;
  prefix: string;
  /** Size of a new session. Default 120×40. */
  width?: number;
  height?: number;
  /**
   * What the agent's input box holds on a plain capture (undefined when none is drawn): `submit`
   * then presses Enter until the box lets go of the text. Without it the text is looked for on
   * the whole screen and Enter is pressed once.
   */
  inputText?(screen: string): string | undefined;
  /** The model API's request log: `submit` stops pressing Enter once the text has reached it. */
  requests?: RequestLog;
  /** How long `press` waits for `until` before pressing again. Default 1 s. */
  pressEveryMs?: number;
  /** Runs after the agent is gone (remove its config dirs). */
  cleanup(): Promise<void>;
}

/**
 * Variables that would point an agent at another service, or make it believe it runs in CI (it
 * then draws for a log, not a person: fewer colours, other layouts) or inside another agent's
 * session; the pane starts without them (`env -u`) unless the launch sets them itself.
 */
export const AGENT_UNSET: readonly string[] = [
  ...CI_MARKERS,
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_MODEL',
  'CLAUDECODE',
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'CLAUDE_CODE_USE_BEDROCK',
  'CLAUDE_CODE_USE_VERTEX',
  'CODEX_SANDBOX',
  'CODEX_THREAD_ID',
  'GEMINI_CLI',
];

/** The HOME and folder an agent pane runs with. */
export interface AgentDirs {
  readonly home: string;
  readonly cwd: string;
  /** `cwd` was made here: the agent may set it up (a git repo). */
  readonly ownCwd: boolean;
  /** Removes the dirs made here, never the caller's. Safe to call twice. */
  remove(): Promise<void>;
}

/**
 * Runs `start` with a HOME and a folder for one agent pane: temp dirs (`collie-<prefix>-home-`,
 * `-cwd-`) where the caller gives none, the caller's own otherwise. `start` writes the agent's
 * config and hands `dirs.remove` to {@link startAgentPane} as its cleanup; whatever fails before
 * the pane runs removes them here.
 */
export async function withAgentDirs<P>(prefix: string, given: { home?: string; cwd?: string }, start: (dirs: AgentDirs) => Promise<P>): Promise<P> {
  const made = [
    ...(given.home === undefined ? [await tempDir(`collie-${prefix}-home-`)] : []),
    ...(given.cwd === undefined ? [await tempDir(`collie-${prefix}-cwd-`)] : []),
  ];
  const take = (have: string | undefined) => have ?? made.shift()!.path;
  const owned = [...made];
  const dirs: AgentDirs = {
    home: take(given.home),
    cwd: take(given.cwd),
    ownCwd: given.cwd === undefined,
    remove: async () => {
      for (const dir of owned) await dir.remove();
    },
  };
  try {
    return await start(dirs);
  } catch (err) {
    await dirs.remove();
    throw err;
  }
}

/**
 * Starts `launch.cmd` in a pane of `tmux` and waits until its screen is ready. On `kill()` (and
 * on any failure while starting) the pane is killed, the agent's process is killed by PID if it
 * outlives it, every process carrying the launch's marker is ended, then `cleanup` runs.
 */
export async function startAgentPane(tmux: TmuxServer, launch: AgentLaunch): Promise<AgentPane> {
  const session = launch.session ?? `${launch.prefix}-${randomBytes(3).toString('hex')}`;
  const env: Record<string, string> = { COLORTERM: 'truecolor', ...launch.env };
  const marker = launch.marker ?? (env.HOME ? `HOME=${env.HOME}` : undefined);
  const every = launch.pressEveryMs ?? 1_000;
  let paneId = '';
  let pid = 0;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (paneId) await tmux.killPane(paneId).catch(() => undefined);
    // An agent writes its config dir until it exits; remove the dir only after that.
    if (pid > 0 && !(await exited(pid, 3_000))) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    if (marker) await endProcessesWithEnv(marker);
    await launch.cleanup();
  };
  try {
    const unset = [...AGENT_UNSET, ...(launch.unset ?? [])].filter((v) => !(v in env));
    const cmd = ['env', ...unset.flatMap((v) => ['-u', v]), ...launch.cmd];
    const started = Date.now();
    const exists = await tmux.tmux('has-session', '-t', `=${session}`).then(
      () => true,
      () => false,
    );
    paneId = exists
      ? await tmux.newWindow(session, { cmd, cwd: launch.cwd, env })
      : await tmux.newSession(session, { cmd, cwd: launch.cwd, env, width: launch.width ?? 120, height: launch.height ?? 40 });
    pid = Number((await tmux.tmux('display-message', '-p', '-t', paneId, '#{pane_pid}')).trim());
    await tmux.waitForScreen(paneId, launch.ready, launch.readyTimeoutMs ?? 60_000).catch((err: Error) => {
      // A start that never gets ready says what its processes were doing, for the next look.
      throw new Error(`${err.message}\n${processesUnder(pid)}`, { cause: err });
    });
    const startMs = Date.now() - started;
    return {
      paneId,
      session,
      home: env.HOME ?? '',
      cwd: launch.cwd,
      startMs,
      argv: ['env', ...unset.flatMap((v) => ['-u', v]), ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...launch.cmd],
      capture: (o) => tmux.capture(paneId, o),
      waitForScreen: (p, t) => tmux.waitForScreen(paneId, p, t),
      submit: (text) => submitTyped(tmux, paneId, text, launch.inputText, undefined, launch.requests),
      async press(keys, until, timeoutMs = 10_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          await tmux.sendKeys(paneId, ...(typeof keys === 'string' ? [keys] : keys));
          const left = deadline - Date.now();
          try {
            return await tmux.waitForScreen(paneId, until, Math.min(left, every));
          } catch (err) {
            if (left <= every) throw err;
          }
        }
      },
      kill: stop,
      [Symbol.asyncDispose]: stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
