import { homedir } from 'node:os';
import { join } from 'node:path';
import type { SessionAgent } from '@collie/protocol';

/**
 * Where each agent keeps its sessions on this machine: Claude Code's config dir (its
 * `projects/` folder), Codex's home (`sessions/`), Gemini CLI's dir (`tmp/*\/chats/`), OpenCode's
 * data dir (`opencode.db`), pi's agent dir (`sessions/`). From the bridge's environment, as
 * each agent reads its own (the same variables the transcript finders read of a pane's agent).
 */
export type StoreRoots = Record<SessionAgent, readonly string[]>;

export function defaultRoots(env: NodeJS.ProcessEnv): StoreRoots {
  const home = env.HOME || homedir();
  return {
    claude: [env.CLAUDE_CONFIG_DIR || join(home, '.claude')],
    codex: [env.CODEX_HOME || join(home, '.codex')],
    gemini: [join(env.GEMINI_CLI_HOME || home, '.gemini')],
    opencode: [join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'opencode')],
    pi: [env.PI_CODING_AGENT_DIR || join(home, '.pi', 'agent')],
  };
}
