import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from '../../temp-dir';
import { agentRequire } from '../installed';
import type { TmuxServer } from '../../tmux';
import { startAgentPane, type AgentPane } from '../pane';
import { startScriptedApi, type AgentApi, type AgentTurnScript } from '../scripted-api';
import { codexInputReady, codexInputText } from './screen';
import { responsesWire } from './responses-wire';

const run = promisify(execFile);

/** The model Codex is told to use: one it knows built-in metadata for (no remote model list). */
export const CODEX_MODEL = 'gpt-5.1-codex';
/** The fake key, read from the env var the provider names. */
export const CODEX_FAKE_KEY = 'sk-collie-testkit-0000';

/**
 * Starts a scripted Responses API on loopback for Codex.
 *
 * @example
 * await using api = await startResponsesApi();
 * api.script(codexReply('Hello.'));
 */
export function startResponsesApi(opts: { fallback?: AgentTurnScript } = {}): Promise<AgentApi> {
  return startScriptedApi(responsesWire, opts);
}

/** Options of {@link startCodex}. */
export interface StartCodexOptions {
  /** Where Codex runs. Default: a fresh temp dir, removed by `kill()`. */
  cwd?: string;
  /** tmux session to start in: created if missing, else a new window in it. */
  session?: string;
  /** Pre-trust the working folder (default), or leave it so the trust dialog shows. */
  trusted?: boolean;
  width?: number;
  height?: number;
  /** Run the app-server as the detached daemon Codex starts by default (slow: copies its build). Default false. */
  daemon?: boolean;
  /** Default 45 s (a loaded machine). */
  readyTimeoutMs?: number;
  /**
   * More `[features]` flags. `default_mode_request_user_input: true` offers the model its
   * question tool outside Plan mode, so a script can make Codex ask.
   */
  features?: Record<string, boolean>;
  /**
   * A `HOME` to share with another Codex pane (its `.codex` is `CODEX_HOME`): two sessions then
   * write their rollouts side by side in one folder. Not removed by `kill()`. Default: its own.
   */
  home?: string;
}

/**
 * Writes `$CODEX_HOME/config.toml` for an offline Codex 0.171: a custom provider at `apiUrl`
 * (so no login screen), no update check, analytics and feedback off, the app-server in-process
 * unless `daemon`, and the working folder trusted unless asked otherwise (`trust_level` is what
 * "Trust and continue" writes).
 */
export async function writeCodexConfig(codexHome: string, apiUrl: string, cwd: string, trusted: boolean, daemon = false, features: Record<string, boolean> = {}): Promise<void> {
  const toml = [
    `model = "${CODEX_MODEL}"`,
    'model_provider = "fake"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.fake]',
    'name = "Fake"',
    `base_url = "${apiUrl}/v1"`,
    'env_key = "FAKE_OPENAI_KEY"',
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    // Without this each fresh CODEX_HOME gets its own copy of the 400 MB app-server build and a
    // detached daemon; in-process the TUI draws the same screens.
    '[features]',
    `daemon_auto_start = ${daemon}`,
    ...Object.entries(features).map(([name, on]) => `${name} = ${on}`),
    ...(trusted ? ['', `[projects."${cwd}"]`, 'trust_level = "trusted"'] : []),
    '',
  ].join('\n');
  await mkdir(codexHome, { recursive: true, mode: 0o700 });
  await writeFile(join(codexHome, 'config.toml'), toml, { mode: 0o600 });
}

/**
 * Starts the real Codex TUI (`@openai/codex`, its native build) in a pane of `tmux`, pointed
 * at `api`, with its own CODEX_HOME and HOME in a temp dir, and waits for its composer (or,
 * untrusted, its trust dialog). `kill()` also ends the app-server daemon Codex leaves behind.
 *
 * @example
 * await using tmux = await startTmux();
 * await using api = await startResponsesApi();
 * await using codex = await startCodex(tmux, api);
 * api.script(codexReply('Hello.'));
 * await codex.submit('hi');
 */
export async function startCodex(tmux: TmuxServer, api: AgentApi, opts: StartCodexOptions = {}): Promise<AgentPane> {
  const ownHome = opts.home === undefined ? await tempDir('collie-codex-home-') : undefined;
  const home = ownHome?.path ?? opts.home ?? '';
  const ownCwd = opts.cwd === undefined ? await tempDir('collie-codex-cwd-') : undefined;
  const cwd = ownCwd?.path ?? opts.cwd ?? '';
  // A project is a git checkout: Codex words its trust prompt and sandbox by that.
  if (ownCwd) await run('git', ['init', '-q', cwd]);
  const owned = [...(ownHome ? [ownHome] : []), ...(ownCwd ? [ownCwd] : [])];
  try {
    const codexHome = join(home, '.codex');
    const mark = randomUUID();
    const trusted = opts.trusted ?? true;
    await writeCodexConfig(codexHome, api.url, cwd, trusted, opts.daemon ?? false, opts.features);
    return await startAgentPane(tmux, {
      cmd: [process.execPath, codexScript()],
      // The pane's own mark: with a shared HOME, `kill()` must end only this pane's processes.
      env: { HOME: home, CODEX_HOME: codexHome, COLLIE_CODEX_PANE: mark, FAKE_OPENAI_KEY: CODEX_FAKE_KEY, COLORTERM: 'truecolor', TERM: 'xterm-256color' },
      marker: `COLLIE_CODEX_PANE=${mark}`,
      cwd,
      session: opts.session,
      prefix: 'codex',
      width: opts.width,
      height: opts.height,
      ready: trusted ? codexInputReady : (s) => /Trust this folder\?|Do you trust/u.test(s),
      readyTimeoutMs: opts.readyTimeoutMs ?? 45_000,
      inputText: codexInputText,
      requests: api.requests,
      pressEveryMs: 750,
      cleanup: async () => {
        for (const dir of owned) await dir.remove();
      },
    });
  } catch (err) {
    for (const dir of owned) await dir.remove();
    throw err;
  }
}

/** The `codex` launcher script of the installed `@openai/codex` (it runs the native build). */
export function codexScript(): string {
  return join(dirname(agentRequire().resolve('@openai/codex/package.json')), 'bin', 'codex.js');
}

/**
 * Why the real Codex cannot run here (its package or its native build for this platform is
 * not installed), or null when it can.
 */
export function codexMissing(): string | null {
  try {
    const here = createRequire(codexScript());
    here.resolve(`@openai/codex-${process.platform}-${process.arch}/package.json`);
    return null;
  } catch (err) {
    return `@openai/codex or its native build for ${process.platform}-${process.arch} is not installed: ${(err as Error).message.split('\n')[0]}`;
  }
}
