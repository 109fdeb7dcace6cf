import { randomBytes } from 'node:crypto';
import { mkdir, realpath } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { writeClaudeConfig, type ClaudeDialogs, type PermissionsMode } from './claude-config';
import { claudeInputReady, claudeInputText } from './claude-screen';
import type { MessagesApi } from './messages-api';
import { exited } from './process-exit';
import { tempDir } from './temp-dir';
import type { TmuxServer } from './tmux';
import type { ScreenPredicate } from './wait';

/** Options of {@link startClaude}. */
export interface StartClaudeOptions {
  /** Where the CLI runs. Default: a fresh temp dir, removed by `kill()`. */
  cwd?: string;
  /** tmux session to start in: created if missing, else the CLI gets a new window in it. */
  session?: string;
  /** `default` (the dialogs people see; the default here) or `auto`. */
  permissions?: PermissionsMode;
  /** Permission rules allowed without a dialog, e.g. `Bash(collie walky:*)`. */
  allow?: readonly string[];
  /** Size of a new session. Default 120×40. */
  width?: number;
  height?: number;
  /** Extra environment for the CLI. */
  env?: Record<string, string>;
  /** Default 30 s. */
  readyTimeoutMs?: number;
  /** The `claude` executable. Default: the native binary the Agent SDK installs. */
  binary?: string;
  /** Startup screens to leave on (all off by default): then pass `ready` too. */
  dialogs?: ClaudeDialogs;
  /** What the start waits for. Default: the input box is drawn ({@link claudeInputReady}). */
  ready?: ScreenPredicate;
  /** Extra arguments for the CLI (`--continue`). */
  args?: string[];
}

/** A real Claude Code TUI in a tmux pane, talking to a scripted Messages API. */
export interface ClaudePane extends AsyncDisposable {
  readonly paneId: string;
  readonly session: string;
  readonly configDir: string;
  readonly cwd: string;
  /** Milliseconds from launch until the input box (or the screen `ready` waits for) was ready. */
  readonly startMs: number;
  capture(opts?: { escapes?: boolean }): Promise<string>;
  waitForScreen(predicate: ScreenPredicate, timeoutMs?: number): Promise<string>;
  /** Types `text`, waits until the box shows it, presses Enter. */
  submit(text: string): Promise<void>;
  /**
   * Presses tmux keys (`Enter`, `Down`, `Escape`) until the screen shows `until`, pressing
   * again while it does not. A dialog refuses keys for a moment after it opens (the CLI's
   * guard against typing ahead into it), and nothing on screen says when that ends.
   */
  press(keys: string | string[], until: ScreenPredicate, timeoutMs?: number): Promise<string>;
  /** Kills the pane and removes the config dir (and the cwd if it made it). Safe to call twice. */
  kill(): Promise<void>;
}

/** A fake key in the shape of a real one; the CLI only checks its shape and our approval. */
export const FAKE_API_KEY = 'sk-ant-api03-collie-testkit-offline-key-0000000000000000AA';

/**
 * Variables that would make the CLI talk to something else or believe it runs inside another
 * agent session; the pane starts without them (`env -u`).
 */
const UNSET = [
  'CLAUDECODE',
  'CLAUDE_CODE_ENTRYPOINT',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'CLAUDE_CODE_USE_BEDROCK',
  'CLAUDE_CODE_USE_VERTEX',
  'ANTHROPIC_MODEL',
  // Under a CI variable the TUI draws for a log, not a person: fewer colours (a wizard's open
  // tab is told by its background) and other layouts. Seen with CI=true, 2026-12-02.
  'CI',
  'CONTINUOUS_INTEGRATION',
  'GITHUB_ACTIONS',
  'BUILD_NUMBER',
  'RUN_ID',
];

/**
 * Starts the real Claude Code TUI in a pane of `tmux`, pointed at `api`, with an isolated
 * config dir ({@link writeClaudeConfig}), and waits until its input box is ready.
 *
 * @example
 * await using tmux = await startTmux();
 * await using api = await startMessagesApi();
 * await using claude = await startClaude(tmux, api);
 * api.script(plainReply('Hello.'));
 * await claude.submit('hi');
 * await claude.waitForScreen(/Hello\./);
 */
export async function startClaude(tmux: TmuxServer, api: MessagesApi, opts: StartClaudeOptions = {}): Promise<ClaudePane> {
  const config = await tempDir('collie-claude-config-');
  const ownCwd = opts.cwd === undefined ? await tempDir('collie-claude-cwd-') : undefined;
  // Trust is keyed on the real path, which is what the CLI reports as its cwd.
  const cwd = opts.cwd === undefined ? ownCwd!.path : await realpath(opts.cwd);
  const session = opts.session ?? `claude-${randomBytes(3).toString('hex')}`;
  const cleanup = async () => {
    await config.remove();
    await ownCwd?.remove();
  };

  let paneId = '';
  let pid = 0;
  const stop = async () => {
    if (paneId) await tmux.killPane(paneId).catch(() => undefined);
    // The CLI writes its config dir until it exits; remove the dir only after that.
    if (pid > 0 && !(await exited(pid, 3_000))) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await cleanup();
  };
  try {
    await writeClaudeConfig(config.path, { cwd, apiKey: FAKE_API_KEY, permissions: opts.permissions, dialogs: opts.dialogs, allow: opts.allow });
    await mkdir(join(config.path, 'home'), { mode: 0o700 });
    const env = claudeEnv(api, config.path, opts.env);
    const cmd = ['env', ...UNSET.flatMap((v) => ['-u', v]), opts.binary ?? claudeBinary(), ...(opts.args ?? [])];
    const started = Date.now();
    const exists = await tmux.tmux('has-session', '-t', `=${session}`).then(() => true, () => false);
    paneId = exists
      ? await tmux.newWindow(session, { cmd, cwd, env })
      : await tmux.newSession(session, { cmd, cwd, env, width: opts.width ?? 120, height: opts.height ?? 40 });
    pid = Number((await tmux.tmux('display-message', '-p', '-t', paneId, '#{pane_pid}')).trim());
    await tmux.waitForScreen(paneId, opts.ready ?? claudeInputReady, opts.readyTimeoutMs ?? 30_000);
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
      configDir: config.path,
      cwd,
      startMs,
      capture: (o) => tmux.capture(paneId, o),
      waitForScreen: (p, t) => tmux.waitForScreen(paneId, p, t),
      async submit(text) {
        await tmux.typeText(paneId, text);
        // Wrapping moves spaces around, so compare without them.
        const squeeze = (t: string) => t.replace(/\s+/g, '');
        const tail = squeeze(text).slice(-30);
        await tmux.waitForScreen(paneId, (s) => squeeze(claudeInputText(s) ?? '').endsWith(tail), 5_000);
        await tmux.sendKeys(paneId, 'Enter');
      },
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
    await stop();
    throw err;
  }
}

/** The environment the CLI runs with: pointed at `api`, its config in `configDir` (its HOME inside). */
function claudeEnv(api: Pick<MessagesApi, 'url'>, configDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    CLAUDE_CONFIG_DIR: configDir,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    // The Bash tool snapshots the login shell's rc files before its first command; the
    // user's (pyenv, nvm, …) cost seconds there and make runs depend on the machine.
    HOME: join(configDir, 'home'),
    // As a user's terminal does. Inside tmux the CLI still draws 256 colours unless
    // CLAUDE_CODE_TMUX_TRUECOLOR is set, which is what most users see.
    COLORTERM: 'truecolor',
    ...extra,
  };
}

/**
 * The argv that starts the real Claude Code TUI as {@link startClaude} does, its environment
 * inline (`env -u … NAME=value … claude`), for a launcher someone else runs: a saved launcher of
 * `launchers.json` started from the phone's New page. `configDir` must be prepared with
 * {@link writeClaudeConfig} for the folder it will run in, and hold a `home/` folder.
 *
 * @example
 * await writeClaudeConfig(dir, { cwd: worktree, apiKey: FAKE_API_KEY });
 * await mkdir(join(dir, 'home'));
 * const command = claudeLauncher(api, dir);
 */
export function claudeLauncher(api: Pick<MessagesApi, 'url'>, configDir: string, opts: Pick<StartClaudeOptions, 'env' | 'binary' | 'args'> = {}): string[] {
  const env = Object.entries(claudeEnv(api, configDir, opts.env)).map(([k, v]) => `${k}=${v}`);
  return ['env', ...UNSET.flatMap((v) => ['-u', v]), ...env, opts.binary ?? claudeBinary(), ...(opts.args ?? [])];
}

/** The native `claude` the Agent SDK installs for this platform. */
export function claudeBinary(): string {
  const name = `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}/package.json`;
  const here = createRequire(import.meta.url);
  let pkg: string;
  try {
    pkg = here.resolve(name);
  } catch {
    // Not hoisted: it is an optional dependency of the SDK, so resolve it from there.
    pkg = createRequire(here.resolve('@anthropic-ai/claude-agent-sdk')).resolve(name);
  }
  return join(dirname(pkg), 'claude');
}
