import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { TmuxServer } from '../../tmux';
import { agentRequire } from '../installed';
import { startAgentPane, withAgentDirs, type AgentPane } from '../pane';
import { startScriptedApi, type AgentApi, type AgentTurnScript } from '../scripted-api';
import { geminiWire } from './gemini-wire';
import { geminiInputReady, geminiInputText } from './screen';

const run = promisify(execFile);

/** The fake key; the CLI only checks that one is set. */
export const GEMINI_FAKE_KEY = 'collie-testkit-0000';

/**
 * Starts a scripted Gemini API on loopback for Gemini CLI.
 *
 * @example
 * await using api = await startGeminiApi();
 * api.script(agentReply('Hello.'));
 */
export function startGeminiApi(opts: { fallback?: AgentTurnScript } = {}): Promise<AgentApi> {
  return startScriptedApi(geminiWire, opts);
}

/** Options of {@link startGemini}. */
export interface StartGeminiOptions {
  /** Where the CLI runs. Default: a fresh git repo in a temp dir, removed by `kill()`. */
  cwd?: string;
  /** tmux session to start in: created if missing, else a new window in it. */
  session?: string;
  /** A HOME to keep after `kill()` (its `.gemini` holds the chats), e.g. to read or resume them later. Default: its own, removed by `kill()`. */
  home?: string;
  /** Pre-trust the working folder (default), or leave it so the trust dialog shows. */
  trusted?: boolean;
  width?: number;
  height?: number;
  /** Default 60 s (the CLI takes 8–10 s to start on a loaded machine). */
  readyTimeoutMs?: number;
  /**
   * Let the CLI check the npm registry for a newer release and pin its "update available" box
   * (auto-update itself stays off). Default false: offline, no box.
   */
  updateNotice?: boolean;
}

/**
 * Writes `~/.gemini` for an offline Gemini CLI 0.61: API-key auth chosen (no auth dialog), auto
 * update, update nag, usage statistics and telemetry off, and the folder trusted unless asked
 * otherwise (`trustedFolders.json` is what answering the trust dialog writes).
 */
export async function writeGeminiConfig(home: string, cwd: string, trusted: boolean, updateNotice = false): Promise<void> {
  const dir = join(home, '.gemini');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: true } },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: updateNotice },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ide: { enabled: false },
  };
  await writeFile(join(dir, 'settings.json'), JSON.stringify(settings, null, 2), { mode: 0o600 });
  if (trusted) await writeFile(join(dir, 'trustedFolders.json'), JSON.stringify({ [cwd]: 'TRUST_FOLDER' }, null, 2), { mode: 0o600 });
}

/**
 * Starts the real Gemini CLI TUI (`@google/gemini-cli`) in a pane of `tmux`, pointed at `api`,
 * with its own HOME in a temp dir, and waits for its input box (or, untrusted, its trust
 * dialog). `kill()` also ends the Node process, which outlives its pane.
 *
 * @example
 * await using tmux = await startTmux();
 * await using api = await startGeminiApi();
 * await using gemini = await startGemini(tmux, api);
 */
export async function startGemini(tmux: TmuxServer, api: AgentApi, opts: StartGeminiOptions = {}): Promise<AgentPane> {
  return withAgentDirs('gemini', { home: opts.home, cwd: opts.cwd }, async ({ home, cwd, ownCwd, remove }) => {
    if (ownCwd) await run('git', ['init', '-q', cwd]);
    const trusted = opts.trusted ?? true;
    await writeGeminiConfig(home, cwd, trusted, opts.updateNotice);
    return startAgentPane(tmux, {
      cmd: [process.execPath, geminiScript()],
      env: { HOME: home, GEMINI_API_KEY: GEMINI_FAKE_KEY, GOOGLE_GEMINI_BASE_URL: api.url, COLORTERM: 'truecolor', TERM: 'xterm-256color' },
      cwd,
      session: opts.session,
      prefix: 'gemini',
      width: opts.width,
      height: opts.height,
      ready: trusted ? geminiInputReady : (s) => /Do you trust (?:the files in )?this folder\?/u.test(s),
      readyTimeoutMs: opts.readyTimeoutMs ?? 60_000,
      inputText: geminiInputText,
      requests: api.requests,
      pressEveryMs: 750,
      cleanup: remove,
    });
  });
}

/** The `gemini` entry of the installed `@google/gemini-cli`. */
export function geminiScript(): string {
  return join(dirname(agentRequire().resolve('@google/gemini-cli/package.json')), 'bundle', 'gemini.js');
}

/** Why the real Gemini CLI cannot run here (its package is not installed), or null when it can. */
export function geminiMissing(): string | null {
  try {
    geminiScript();
    return null;
  } catch (err) {
    return `@google/gemini-cli is not installed: ${(err as Error).message.split('\n')[0]}`;
  }
}
