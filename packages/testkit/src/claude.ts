import { mkdir, realpath } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { writeClaudeConfig, type ClaudeDialogs, type PermissionsMode } from './claude-config';
import { claudeInputReady, claudeInputText } from './claude-screen';
import type { MessagesApi } from './messages-api';
import { tempDir } from './temp-dir';
import type { TmuxServer } from './tmux';
import { AGENT_UNSET, startAgentPane, type AgentPane } from './agents/pane';
import type { ScreenPredicate } from './wait';
import { agentRequire, agentsFrom } from './agents/installed';

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
  /** Default 60 s, as every agent's. */
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
export interface ClaudePane extends AgentPane {
  /** Its `CLAUDE_CONFIG_DIR` (`home` is a dir inside it). */
  readonly configDir: string;
}

/** A fake key in the shape of a real one; the CLI only checks its shape and our approval. */
export const FAKE_API_KEY = 'sk-ant-api03-collie-testkit-offline-key-0000000000000000AA';

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
  const cleanup = async () => {
    await config.remove();
    await ownCwd?.remove();
  };
  try {
    await writeClaudeConfig(config.path, { cwd, apiKey: FAKE_API_KEY, permissions: opts.permissions, dialogs: opts.dialogs, allow: opts.allow });
    await mkdir(join(config.path, 'home'), { mode: 0o700 });
    const pane = await startAgentPane(tmux, {
      prefix: 'claude',
      cmd: [opts.binary ?? claudeBinary(), ...(opts.args ?? [])],
      cwd,
      env: claudeEnv(api, config.path, opts.env),
      ready: opts.ready ?? claudeInputReady,
      readyTimeoutMs: opts.readyTimeoutMs ?? 60_000,
      session: opts.session,
      width: opts.width,
      height: opts.height,
      inputText: claudeInputText,
      requests: api.requests,
      pressEveryMs: 750,
      cleanup,
    });
    return Object.assign(pane, { configDir: config.path });
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/**
 * What keeps the CLI on this machine, wherever the testkit runs it (a pane, the Agent SDK, an
 * ACP adapter): no telemetry or update checks, and no clone of its official plugin marketplace
 * from GitHub (with an ssh probe to it), which it otherwise starts on every first run.
 */
export const CLAUDE_QUIET_ENV: Readonly<Record<string, string>> = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
};

/** The environment the CLI runs with: pointed at `api`, its config in `configDir` (its HOME inside). */
function claudeEnv(api: Pick<MessagesApi, 'url'>, configDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    CLAUDE_CONFIG_DIR: configDir,
    ...CLAUDE_QUIET_ENV,
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
  const vars = claudeEnv(api, configDir, opts.env);
  // Only what this environment has: a launcher's command is at most 40 words.
  const unset = AGENT_UNSET.filter((v) => !(v in vars) && process.env[v] !== undefined);
  const env = Object.entries(vars).map(([k, v]) => `${k}=${v}`);
  return ['env', ...unset.flatMap((v) => ['-u', v]), ...env, opts.binary ?? claudeBinary(), ...(opts.args ?? [])];
}

/**
 * The native `claude` the Agent SDK installs for this platform. The SDK is Nerve's dependency
 * (installed with every workspace by `npm test`, not by `npm start`), found at the root.
 */
export function claudeBinary(): string {
  const name = `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}/package.json`;
  // The pinned binary comes with Nerve's SDK; another release from `--from`'s prefix.
  const here = agentsFrom() === null ? createRequire(import.meta.url) : agentRequire();
  let pkg: string;
  try {
    pkg = here.resolve(name);
  } catch {
    // Not hoisted: it is an optional dependency of the SDK, so resolve it from there.
    pkg = createRequire(here.resolve('@anthropic-ai/claude-agent-sdk')).resolve(name);
  }
  return join(dirname(pkg), 'claude');
}
