import { existsSync } from 'node:fs';
import { claudeBinary, startClaude } from '../claude';
import { claudeInputReady, claudePermissionDialog, claudeWorking } from '../claude-screen';
import { startMessagesApi } from '../messages-api';
import { bashPermission, plainReply } from '../scenarios';
import type { TmuxServer } from '../tmux';
import { codexMissing, startCodex, startResponsesApi } from './codex/codex';
import { codexApproval, codexInputReady, codexWorking } from './codex/screen';
import { geminiMissing, startGemini, startGeminiApi } from './gemini/gemini';
import { geminiApproval, geminiInputReady, geminiWorking } from './gemini/screen';
import { chatReply, chatToolCall } from './openai-chat/scripts';
import { startChatApi } from './openai-chat/server';
import { ompCommand } from './omp/config';
import { startOmp } from './omp/omp';
import { ompApproval, ompReady } from './omp/screen';
import { opencodeBinary, startOpencode } from './opencode/opencode';
import { opencodePermission, opencodeReady } from './opencode/screen';
import { piPackageDir } from './pi/config';
import { startPi } from './pi/pi';
import { piPermission, piReady } from './pi/screen';
import type { AgentPane } from './pane';
import { agentReply, agentShell } from './turns';

/**
 * One real agent in a pane against its own scripted model API, behind one shape whatever its
 * wire: what a benchmark or a demo needs to make it reply, make it ask to run a command, and
 * tell from its screen that it asks or is idle.
 */
export interface AgentRig {
  readonly agent: string;
  readonly pane: AgentPane;
  /** The next prompt is answered with `text`. */
  reply(text: string): void;
  /** The next prompt calls the agent's shell tool with `command` (its approval opens); the result gets a closing line. */
  askToRun(command: string): void;
  /** The screen shows the approval {@link askToRun} opened. */
  asking(screen: string): boolean;
  /** The agent waits for a prompt: its input box drawn, no turn running, no dialog. */
  idle(screen: string): boolean;
  /** Resolves once the model API received prompt `text`. */
  received(text: string, timeoutMs?: number): Promise<void>;
  /** Kills the pane, then closes the API. */
  stop(): Promise<void>;
}

/** Where and how big the pane is, and how long its start may take. */
export interface RigOptions {
  session?: string;
  cwd?: string;
  width?: number;
  height?: number;
  readyTimeoutMs?: number;
}

/** How to start one agent's rig, and why it cannot start here (its package is not installed), or null. */
export interface AgentRigStarter {
  missing(): string | null;
  start(tmux: TmuxServer, opts?: RigOptions): Promise<AgentRig>;
}

/** omp puts a `<system-reminder>` (date, folder) before the session's first prompt. */
const isPrompt = (prompt: string, text: string) => prompt === text || prompt.trimEnd().endsWith(`\n${text}`);

const reason = (f: () => unknown): string | null => {
  try {
    f();
    return null;
  } catch (err) {
    return (err as Error).message.split('\n')[0] ?? 'not installed';
  }
};

/**
 * Every agent the testkit runs for real, by the bridge's harness name. pi asks only through its
 * shipped permission-gate extension, which stops `rm -rf`: its rig's command is made one.
 */
export const AGENT_RIGS: Record<string, AgentRigStarter> = {
  claude: {
    missing: () => reason(() => { if (!existsSync(claudeBinary())) throw new Error('the Claude Code binary is not installed'); }),
    async start(tmux, opts = {}) {
      const api = await startMessagesApi();
      const pane = await startClaude(tmux, api, opts).catch(async (err: unknown) => { await api.close(); throw err; });
      return {
        agent: 'claude',
        pane,
        reply: (text) => api.script(plainReply(text)),
        askToRun: (command) => api.script(bashPermission(command)),
        asking: claudePermissionDialog,
        idle: (s) => claudeInputReady(s) && !claudeWorking(s),
        received: async (text, ms) => void (await api.waitForRequest((r) => r.kind === 'main' && isPrompt(r.prompt, text), ms)),
        stop: async () => { await pane.kill(); await api.close(); },
      };
    },
  },
  codex: {
    missing: codexMissing,
    async start(tmux, opts = {}) {
      const api = await startResponsesApi();
      const pane = await startCodex(tmux, api, opts).catch(async (err: unknown) => { await api.close(); throw err; });
      return {
        agent: 'codex',
        pane,
        reply: (text) => api.script(agentReply(text)),
        askToRun: (command) => api.script(...agentShell(command, { reason: 'Run the scripted command' })),
        asking: codexApproval,
        idle: (s) => codexInputReady(s) && !codexWorking(s),
        received: async (text, ms) => void (await api.waitForRequest((r) => r.kind === 'main' && isPrompt(r.prompt, text), ms)),
        stop: async () => { await pane.kill(); await api.close(); },
      };
    },
  },
  gemini: {
    missing: geminiMissing,
    async start(tmux, opts = {}) {
      const api = await startGeminiApi();
      const pane = await startGemini(tmux, api, opts).catch(async (err: unknown) => { await api.close(); throw err; });
      return {
        agent: 'gemini',
        pane,
        reply: (text) => api.script(agentReply(text)),
        askToRun: (command) => api.script(...agentShell(command, { reason: 'Run the scripted command' })),
        asking: geminiApproval,
        idle: (s) => geminiInputReady(s) && !geminiWorking(s),
        received: async (text, ms) => void (await api.waitForRequest((r) => r.kind === 'main' && isPrompt(r.prompt, text), ms)),
        stop: async () => { await pane.kill(); await api.close(); },
      };
    },
  },
  ...chatRig('opencode', () => reason(() => { if (!existsSync(opencodeBinary())) throw new Error('the opencode-ai binary is not installed'); }), (tmux, api, opts) => startOpencode(tmux, api, opts), opencodePermission, opencodeReady, (c) => c),
  ...chatRig('pi', () => reason(piPackageDir), (tmux, api, opts) => startPi(tmux, api, opts), piPermission, piReady, (c) => (c.startsWith('rm -rf') ? c : `rm -rf ./${c.replace(/\W+/gu, '-')}`)),
  ...chatRig('omp', () => { const c = ompCommand(); return 'missing' in c ? c.missing : null; }, (tmux, api, opts) => startOmp(tmux, api, opts), ompApproval, ompReady, (c) => c),
};

/** The rig of an agent on the scripted chat-completions API (OpenCode, pi, omp): its `bash` tool asks. */
function chatRig(
  agent: string,
  missing: () => string | null,
  start: (tmux: TmuxServer, api: Awaited<ReturnType<typeof startChatApi>>, opts: RigOptions) => Promise<AgentPane>,
  asking: (s: string) => boolean,
  ready: (s: string) => boolean,
  command: (c: string) => string,
): Record<string, AgentRigStarter> {
  return {
    [agent]: {
      missing,
      async start(tmux, opts = {}) {
        const api = await startChatApi();
        const pane = await start(tmux, api, opts).catch(async (err: unknown) => { await api.close(); throw err; });
        return {
          agent,
          pane,
          reply: (text) => api.script(chatReply(text)),
          askToRun: (c) => api.script(...chatToolCall('bash', { command: command(c), description: 'Run the scripted command' })),
          asking,
          idle: (s) => ready(s) && !asking(s),
          received: async (text, ms) => void (await api.waitForRequest((r) => r.kind === 'main' && isPrompt(r.prompt, text), ms)),
          stop: async () => { await pane.kill(); await api.close(); },
        };
      },
    },
  };
}
