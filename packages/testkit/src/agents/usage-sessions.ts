import type { TmuxServer } from '../tmux';
import { GEMINI_USAGE } from './gemini/gemini-wire';
import { geminiMissing, startGemini, startGeminiApi } from './gemini/gemini';
import { startChatApi, type ChatApi } from './openai-chat/server';
import { startOpencode } from './opencode/opencode';
import { SCRIPTED_PRICES } from './pi/config';
import { startPi } from './pi/pi';
import type { AgentPane } from './pane';
import { agentReply } from './turns';

/** The usage figures the scripted API reported over a session's turns, as the agent should record them. */
export interface ReportedUsage {
  readonly model: string;
  /** The last turn's prompt tokens: the context in use. */
  readonly contextTokens: number;
  /** Every turn's prompt and completion tokens together. */
  readonly sessionTokens: number;
  /** At the scripted prices, where the agent records a cost. */
  readonly costUsd?: number;
}

/** One real agent in a pane against its scripted API, ready to run turns of known usage. */
export interface UsageSession extends AsyncDisposable {
  readonly pane: AgentPane;
  /**
   * Submits the session's turns; after each, `recorded(sessionTokens)` waits until the reader
   * under test shows that many tokens. Resolves with the figures the API reported.
   */
  run(recorded: (sessionTokens: number) => Promise<unknown>): Promise<ReportedUsage>;
}

/** An agent that records usage in its own files, by the bridge's harness name. */
export interface UsageAgent {
  readonly harness: 'gemini' | 'pi' | 'opencode';
  readonly name: string;
  /** Why it cannot run here, or null. */
  missing(): string | null;
  start(tmux: TmuxServer): Promise<UsageSession>;
}

const price = (input: number, output: number) => (SCRIPTED_PRICES.input * input + SCRIPTED_PRICES.output * output) / 1_000_000;

/** Two turns on an OpenAI-style chat API: 12 000 + 800 tokens, then 18 000 + 1 200 ($0.12 in all). */
const TURNS = [
  { prompt: 12_000, completion: 800 },
  { prompt: 18_000, completion: 1_200 },
] as const;

/** pi and OpenCode, both on the scripted chat API with the `fake-coder` model and its prices. */
function chatSession(start: (tmux: TmuxServer, api: ChatApi) => Promise<AgentPane>): (tmux: TmuxServer) => Promise<UsageSession> {
  return async (tmux) => {
    const api = await startChatApi();
    const pane = await start(tmux, api).catch(async (err: unknown) => {
      await api[Symbol.asyncDispose]();
      throw err;
    });
    return {
      pane,
      async run(recorded) {
        let tokens = 0;
        for (const [i, t] of TURNS.entries()) {
          api.script(() => ({ text: `Turn ${i + 1}.`, usage: { prompt_tokens: t.prompt, completion_tokens: t.completion } }));
          await pane.submit(`turn ${i + 1}`);
          tokens += t.prompt + t.completion;
          await recorded(tokens);
        }
        const last = TURNS[TURNS.length - 1]!;
        return { model: 'fake-coder', contextTokens: last.prompt, sessionTokens: tokens, costUsd: TURNS.reduce((s, t) => s + price(t.prompt, t.completion), 0) };
      },
      async [Symbol.asyncDispose]() {
        await pane[Symbol.asyncDispose]();
        await api[Symbol.asyncDispose]();
      },
    };
  };
}

/**
 * Gemini CLI, pi and OpenCode: each a real session against its scripted API whose responses
 * carry known usage. Usage tests run them to compare what the agent's own record gives with
 * what the API reported.
 */
export const USAGE_AGENTS: readonly UsageAgent[] = [
  {
    harness: 'gemini',
    name: 'Gemini CLI',
    missing: geminiMissing,
    async start(tmux) {
      const api = await startGeminiApi();
      const pane = await startGemini(tmux, api).catch(async (err: unknown) => {
        await api[Symbol.asyncDispose]();
        throw err;
      });
      return {
        pane,
        async run(recorded) {
          api.script(agentReply('Counted.'));
          await pane.submit('count my tokens');
          const main = await api.waitForRequest((r) => r.kind === 'main', 240_000);
          await recorded(GEMINI_USAGE.totalTokenCount);
          return { model: main.model, contextTokens: GEMINI_USAGE.promptTokenCount, sessionTokens: GEMINI_USAGE.totalTokenCount };
        },
        async [Symbol.asyncDispose]() {
          await pane[Symbol.asyncDispose]();
          await api[Symbol.asyncDispose]();
        },
      };
    },
  },
  { harness: 'pi', name: 'pi', missing: () => null, start: chatSession((tmux, api) => startPi(tmux, api)) },
  { harness: 'opencode', name: 'OpenCode', missing: () => null, start: chatSession((tmux, api) => startOpencode(tmux, api, { permission: { bash: 'allow', edit: 'allow' } })) },
];
