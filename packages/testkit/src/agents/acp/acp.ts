import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tempDir, type TempDir } from '../../temp-dir';
import { agentRequire } from '../installed';
import type { AgentApi } from '../scripted-api';
import { GEMINI_FAKE_KEY, geminiScript, writeGeminiConfig } from '../gemini/gemini';
import { CLAUDE_QUIET_ENV, claudeBinary, FAKE_API_KEY } from '../../claude';
import { CODEX_FAKE_KEY, writeCodexConfig } from '../codex/codex';
import type { MessagesApi } from '../../messages-api';

const run = promisify(execFile);

/** An ACP agent program to spawn: what `collie durable acp -- <command> [args…]` is given. */
export interface AcpAgentCommand {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The scripted ACP agent (`script-agent.mjs`): a real agent program over stdio whose prompts are
 * command words (hello, silent, edit, askfirst, fail, elicit, elicit-url, read <path>, write <path>
 * <text>, term <dir>, slow,
 * hang, deaf, crash, fuzz, oversize). `plain`: it keeps no sessions (no `loadSession`, no
 * `session/list`). `hang`: the methods it never answers (`session/new`, `session/load`).
 * `brokenIf`: a file; while it exists the agent dies as it starts (a restart that fails).
 */
export function acpScriptAgent(cwd: string, o: { plain?: boolean; hang?: readonly ('session/new' | 'session/load')[]; brokenIf?: string } = {}): AcpAgentCommand {
  const env: NodeJS.ProcessEnv = { ...process.env, SCRIPT_AGENT_PLAIN: o.plain ? '1' : '0', SCRIPT_AGENT_HANG: (o.hang ?? []).join(','), SCRIPT_AGENT_BROKEN_IF: o.brokenIf ?? '' };
  return { command: process.execPath, args: [join(dirname(fileURLToPath(import.meta.url)), 'script-agent.mjs')], cwd, env };
}

/**
 * Gemini CLI in ACP mode (`gemini --experimental-acp`) against a scripted Gemini API, with its
 * own HOME and a trusted git repo as its folder. `dispose()` removes both.
 */
export async function geminiAcpAgent(api: AgentApi): Promise<AcpAgentCommand & AsyncDisposable & { home: TempDir; folder: TempDir }> {
  const home = await tempDir('collie-gemini-acp-home-');
  const folder = await tempDir('collie-gemini-acp-cwd-');
  await run('git', ['init', '-q', folder.path]);
  await writeGeminiConfig(home.path, folder.path, true);
  return {
    command: process.execPath,
    args: [geminiScript(), '--experimental-acp'],
    cwd: folder.path,
    env: { ...process.env, HOME: home.path, GEMINI_API_KEY: GEMINI_FAKE_KEY, GOOGLE_GEMINI_BASE_URL: api.url, GEMINI_CLI_NO_RELAUNCH: 'true', NO_COLOR: '1' },
    home,
    folder,
    async [Symbol.asyncDispose]() {
      await folder.remove();
      await home.remove();
    },
  };
}

/** The entry of the installed `@zed-industries/claude-agent-acp` (one of packages/testkit/agents). */
export function claudeAcpScript(): string {
  return join(dirname(agentRequire().resolve('@zed-industries/claude-agent-acp/package.json')), 'dist', 'index.js');
}

/**
 * The Claude Code ACP adapter (`@zed-industries/claude-agent-acp`, on the Claude Agent SDK) driving
 * the real native `claude` (`CLAUDE_CODE_EXECUTABLE`, which the adapter passes to the SDK as
 * `pathToClaudeCodeExecutable`) against the scripted Messages API (`ANTHROPIC_BASE_URL`), with its
 * own HOME and CLAUDE_CONFIG_DIR (where the sessions the adapter lists are kept) and a git repo as
 * its folder. Only PATH is taken from this process, so no key or endpoint of the machine leaks in.
 */
export async function claudeAcpAgent(api: MessagesApi): Promise<AcpAgentCommand & AsyncDisposable & { home: TempDir; folder: TempDir; configDir: string }> {
  const home = await tempDir('collie-claude-acp-home-');
  const folder = await tempDir('collie-claude-acp-cwd-');
  await run('git', ['init', '-q', folder.path]);
  const configDir = join(home.path, 'config');
  await mkdir(configDir, { mode: 0o700 });
  return {
    command: process.execPath,
    args: [claudeAcpScript()],
    cwd: folder.path,
    env: {
      PATH: process.env.PATH,
      HOME: home.path,
      ANTHROPIC_BASE_URL: api.url,
      ANTHROPIC_API_KEY: FAKE_API_KEY,
      CLAUDE_CONFIG_DIR: configDir,
      CLAUDE_CODE_EXECUTABLE: claudeBinary(),
      ...CLAUDE_QUIET_ENV,
    },
    home,
    folder,
    configDir,
    async [Symbol.asyncDispose]() {
      await folder.remove();
      await home.remove();
    },
  };
}

/**
 * The native build of the installed `@zed-industries/codex-acp` for this platform (its
 * `bin/codex-acp.js` only finds and runs it, with `spawnSync`, so a signal to the launcher would
 * not reach the build: the build is spawned itself).
 */
export function codexAcpBinary(): string {
  const launcher = agentRequire().resolve('@zed-industries/codex-acp/package.json');
  const pkg = createRequire(launcher).resolve(`@zed-industries/codex-acp-${process.platform}-${process.arch}/package.json`);
  return join(dirname(pkg), 'bin', process.platform === 'win32' ? 'codex-acp.exe' : 'codex-acp');
}

/** The model the Codex ACP adapter is told to use (one of its built-in list). */
export const CODEX_ACP_MODEL = 'gpt-5.4';

/**
 * The Codex ACP adapter (`@zed-industries/codex-acp`, Codex's own core in one native build) against
 * a scripted Responses API: the same offline `config.toml` as the Codex TUI (a custom provider at
 * the API with its key in an env var, so no login; no update check, analytics or feedback), its
 * own HOME and CODEX_HOME, and a trusted git repo as its folder.
 */
export async function codexAcpAgent(api: AgentApi): Promise<AcpAgentCommand & AsyncDisposable & { home: TempDir; folder: TempDir; codexHome: string }> {
  const home = await tempDir('collie-codex-acp-home-');
  const folder = await tempDir('collie-codex-acp-cwd-');
  await run('git', ['init', '-q', folder.path]);
  const codexHome = join(home.path, '.codex');
  await writeCodexConfig(codexHome, api.url, folder.path, true);
  return {
    command: codexAcpBinary(),
    // A model its core has metadata for: with the TUI's gpt-5.1-codex it sends a warning about
    // fallback metadata as the first chunk of every reply.
    args: ['-c', `model="${CODEX_ACP_MODEL}"`],
    cwd: folder.path,
    env: { PATH: process.env.PATH, HOME: home.path, CODEX_HOME: codexHome, FAKE_OPENAI_KEY: CODEX_FAKE_KEY, RUST_LOG: 'warn' },
    home,
    folder,
    codexHome,
    async [Symbol.asyncDispose]() {
      await folder.remove();
      await home.remove();
    },
  };
}
