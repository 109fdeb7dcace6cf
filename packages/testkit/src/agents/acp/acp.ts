import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tempDir, type TempDir } from '../../temp-dir';
import type { AgentApi } from '../scripted-api';
import { GEMINI_FAKE_KEY, geminiScript, writeGeminiConfig } from '../gemini/gemini';

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
 * command words (hello, edit, elicit, read <path>, slow, hang, crash, fuzz, oversize).
 */
export function acpScriptAgent(cwd: string): AcpAgentCommand {
  return { command: process.execPath, args: [join(dirname(fileURLToPath(import.meta.url)), 'script-agent.mjs')], cwd, env: { ...process.env } };
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
