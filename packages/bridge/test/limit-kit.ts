import { momentWords } from '@collie/protocol';
import { startClaude, startCodex, startMessagesApi, startPushService, startResponsesApi, startTmux, tempDir, type AgentApi, type AgentPane, type ClaudePane, type MessagesApi, type PushServiceStandIn, type TempDir, type TmuxServer, type Turn } from '@collie/testkit';
import type { TestBridge } from './harness';
import { until } from './harness';
import { pushBridge, subscribeDevice } from './push-kit';

/**
 * A real agent in tmux against its scripted API, a bridge whose pushes go to the stand-in push
 * service, and a device subscribed there: the set-up of every usage-limit test (issue 29).
 */
export const SLOW = 180_000;

interface LimitRig<A, P> extends AsyncDisposable {
  tmux: TmuxServer;
  api: A;
  service: PushServiceStandIn;
  agent: P;
  bridge: TestBridge;
  /** The agent pane's id. */
  id: string;
}

async function rig<A extends { close(): Promise<void> }, P extends AsyncDisposable & { paneId: string }>(startApi: () => Promise<A>, startAgent: (tmux: TmuxServer, api: A) => Promise<P>, harness: 'codex' | 'claude'): Promise<LimitRig<A, P>> {
  const undo: Array<() => PromiseLike<unknown>> = [];
  const dispose = async () => {
    for (const u of undo.reverse()) await u();
  };
  try {
    const tmux = await startTmux();
    undo.push(() => tmux.kill());
    const api = await startApi();
    undo.push(() => api.close());
    const state: TempDir = await tempDir('collie-state');
    undo.push(() => state.remove());
    const service = await startPushService();
    undo.push(() => service[Symbol.asyncDispose]());
    const agent = await startAgent(tmux, api);
    undo.push(() => agent[Symbol.asyncDispose]());
    const bridge = await pushBridge(tmux.tmpDir, state.path, service, { delayMs: 500 });
    undo.push(() => bridge.stop());
    const id = `${tmux.name}:${agent.paneId}`;
    await until(bridge.hub, `the ${harness} pane`, (h) => h.panes.get(id)?.harness === harness, SLOW);
    await subscribeDevice(bridge, service.subscribe());
    return { tmux, api, service, agent, bridge, id, [Symbol.asyncDispose]: dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

/** The real Codex TUI at its scripted Responses API. */
export const codexLimitRig = (): Promise<LimitRig<AgentApi, AgentPane>> => rig(() => startResponsesApi(), (tmux, api) => startCodex(tmux, api), 'codex');

/** The real Claude Code signed in with a subscription token (its usage limit shows on its screen). */
export const claudeLimitRig = (): Promise<LimitRig<MessagesApi, ClaudePane>> =>
  rig(() => startMessagesApi(), (tmux, api) => startClaude(tmux, api, { env: { CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-scripted', ANTHROPIC_API_KEY: '' }, readyTimeoutMs: 40_000 }), 'claude');

/** Codex's rate-limit headers: `percent` used of a 300-minute window that resets at `resetS` (epoch s). */
export const codexLimits = (percent: number, resetS: number) => ({
  'x-codex-primary-used-percent': String(percent),
  'x-codex-primary-window-minutes': '300',
  'x-codex-primary-reset-at': String(resetS),
});

/** The Messages API's answer at the usage limit: a 429 with the unified limit's headers, resetting at `resetS`. */
export const claudeLimitError = (resetS: number): Turn => ({
  blocks: [],
  error: {
    status: 429,
    type: 'rate_limit_error',
    message: 'This request would exceed your account’s rate limit.',
    headers: { 'anthropic-ratelimit-unified-status': 'rejected', 'anthropic-ratelimit-unified-reset': String(resetS), 'anthropic-ratelimit-unified-representative-claim': 'five_hour', 'x-should-retry': 'false' },
  },
});

/** `15:00` on this machine's clock (`Sun 00:30` on its next day), as the pushes word a reset. */
export const hhmm = (epochS: number) => momentWords(new Date(epochS * 1000).toISOString(), Date.now());
