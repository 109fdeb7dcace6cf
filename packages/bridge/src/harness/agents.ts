import type { Harness, ScreenReading } from '@collie/protocol';
import type { AgentReader } from './agent';
import { aiderAgent } from './aider/index';
import { claudeAgent } from './claude/index';
import { codexAgent } from './codex/index';
import { geminiAgent } from './gemini/index';
import { ompAgent } from './omp/index';
import { opencodeAgent } from './opencode/index';
import { piAgent } from './pi/index';

/** Anything that is not an agent: nothing to read, and nothing the bridge may assume. */
const shellAgent: AgentReader = {
  read: (): ScreenReading => ({ harness: 'shell', state: 'unknown', dialog: null, draft: null }),
  stopKey: 'C-c',
  pastePlaceholder: null,
};

/** The one table from a detected harness to its reader. */
export const AGENTS: Record<Harness, AgentReader> = {
  claude: claudeAgent,
  omp: ompAgent,
  codex: codexAgent,
  opencode: opencodeAgent,
  gemini: geminiAgent,
  pi: piAgent,
  aider: aiderAgent,
  shell: shellAgent,
};
