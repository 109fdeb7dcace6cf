import type { Pane } from '@collie/protocol';
import {
  startChatApi,
  startCodex,
  startGemini,
  startGeminiApi,
  startOmp,
  startOpencode,
  startPi,
  startResponsesApi,
  Started,
  type AgentApi,
  type ChatApi,
  type OpencodePane,
  type StartCodexOptions,
  type StartGeminiOptions,
  type StartOmpOptions,
  type StartOpencodeOptions,
  type StartPiOptions,
} from '@collie/testkit';
import { startClaude, startMessagesApi, startTmux, tempDir, type AgentPane, type ClaudePane, type MessagesApi, type MessagesApiOptions, type StartClaudeOptions, type TempDir, type TmuxServer } from '@collie/testkit';
import type { BridgeOptions } from '../src/bridge';
import type { EventHub } from '../src/events/hub';
import { bridgeFor, type TestBridge, until } from './harness';

/**
 * The live-agent-test rig: a private tmux server, a scripted Messages API, the real Claude Code
 * TUI in a pane of it, a state dir and a bridge with a paired test device, started in that order
 * and stopped last first (`await using`, or `rig[Symbol.asyncDispose]()` in an afterAll).
 */
export interface LiveClaude extends AsyncDisposable {
  readonly tmux: TmuxServer;
  readonly api: MessagesApi;
  readonly state: TempDir;
  readonly claude: ClaudePane;
  readonly bridge: TestBridge;
  /** The Claude pane's id in the bridge's model (`<server>:<pane>`). */
  readonly id: string;
  /** The Claude pane as the bridge's model has it now. */
  pane(): Pane | undefined;
  /** Resolves with the pane once it is idle (or done) with no draft and no dialog. */
  idle(ms?: number): Promise<Pane>;
}

/** What a live test starts beyond the defaults. */
export interface LiveClaudeOptions {
  api?: MessagesApiOptions;
  claude?: StartClaudeOptions;
  /** Runs before the bridge starts (more panes, stored receipts); gets the parts started so far. */
  before?: (parts: Pick<LiveClaude, 'tmux' | 'api' | 'state' | 'claude' | 'id'>) => Promise<void>;
  bridge?: Partial<Pick<BridgeOptions, 'redact' | 'holdMs' | 'env' | 'configDir' | 'sessionRoots'>>;
  /** What the bridge's model must show before the rig is handed over. Default: the pane idle. */
  ready?: { what: string; check: (hub: EventHub, id: string) => unknown };
  /** How long `ready` may take (ms). Default 60 s. */
  readyMs?: number;
}

/** Whether the pane `id` is idle (or done) with no draft and no dialog: the pane, or nothing. */
export const idlePane = (hub: EventHub, id: string): Pane | undefined => {
  const p = hub.panes.get(id);
  return p && (p.state === 'idle' || p.state === 'done') && p.draft === null && p.dialog === null ? p : undefined;
};

/** Starts the rig of a live Claude Code test; a start that throws stops what it had started. */
export async function liveClaude(options: LiveClaudeOptions = {}): Promise<LiveClaude> {
  const started = new Started();
  const use = <T extends AsyncDisposable>(part: T): T => started.use(part);
  return started.guard(async () => {
    const tmux = use(await startTmux());
    const api = use(await startMessagesApi(options.api));
    const state = use(await tempDir('collie-state'));
    const claude = use(await startClaude(tmux, api, options.claude));
    const id = `${tmux.name}:${claude.paneId}`;
    await options.before?.({ tmux, api, state, claude, id });
    const bridge = use(await bridgeFor(tmux.tmpDir, state.path, options.bridge));
    const ready = options.ready ?? { what: 'the pane idle', check: idlePane };
    await until(bridge.hub, ready.what, (hub) => ready.check(hub, id), options.readyMs ?? 60_000);
    return {
      tmux,
      api,
      state,
      claude,
      bridge,
      id,
      pane: () => bridge.hub.panes.get(id),
      idle: (ms = 30_000) => until(bridge.hub, 'the pane idle', (hub) => idlePane(hub, id), ms),
      [Symbol.asyncDispose]: () => started[Symbol.asyncDispose](),
    };
  });
}

/** A live test's desk with no agent: a private tmux server, a state dir and a work dir; its bridge started by the test. */
export interface LiveDesk extends AsyncDisposable {
  readonly tmux: TmuxServer;
  readonly state: TempDir;
  readonly work: TempDir;
  /** Starts the bridge on this desk's tmux and state dir (stopped with the desk, first). */
  startBridge(extra?: LiveClaudeOptions['bridge']): Promise<TestBridge>;
  /** Keeps a bridge started some other way, to stop it with the desk. */
  keep<T extends AsyncDisposable>(part: T): T;
}

/** Starts a desk: tmux, a state dir and a work dir (`prefix`), stopped last first. */
export async function liveDesk(prefix: string): Promise<LiveDesk> {
  const started = new Started();
  const keep = <T extends AsyncDisposable>(part: T): T => started.use(part);
  return started.guard(async () => {
    const work = keep(await tempDir(prefix));
    const state = keep(await tempDir('collie-state'));
    const tmux = keep(await startTmux());
    return { tmux, state, work, keep, startBridge: async (extra) => keep(await bridgeFor(tmux.tmpDir, state.path, extra)), [Symbol.asyncDispose]: () => started[Symbol.asyncDispose]() };
  });
}

/**
 * A live test's desk with one real agent of any kind in a pane against its scripted API: tmux,
 * the API, a state dir, the agent and a bridge with a paired test device, started in that order
 * and stopped last first. Handed over once the bridge reads the pane as `harness`.
 */
export interface LiveAgentPane<Api extends AsyncDisposable, A extends AgentPane> extends AsyncDisposable {
  readonly tmux: TmuxServer;
  readonly api: Api;
  readonly state: TempDir;
  readonly agent: A;
  readonly bridge: TestBridge;
  /** The agent pane's id in the bridge's model (`<server>:<pane>`). */
  readonly id: string;
}

/** How a {@link liveAgentPane} starts its API and its agent, and what the bridge must read it as. */
export interface LiveAgentKind<Api extends AsyncDisposable, A extends AgentPane> {
  /** The pane's harness once the bridge has read it (`codex`, `gemini`, `opencode`, `pi`, …). */
  harness: string;
  api: () => Promise<Api>;
  agent: (tmux: TmuxServer, api: Api) => Promise<A>;
}

/** Starts a {@link LiveAgentPane}; waits up to `ms` for the bridge to read the pane as the kind's harness. */
export async function liveAgentPane<Api extends AsyncDisposable, A extends AgentPane>(kind: LiveAgentKind<Api, A>, ms: number): Promise<LiveAgentPane<Api, A>> {
  const started = new Started();
  return started.guard(async () => {
    const tmux = started.use(await startTmux());
    const api = started.use(await kind.api());
    const state = started.use(await tempDir('collie-state'));
    const agent = started.use(await kind.agent(tmux, api));
    const bridge = started.use(await bridgeFor(tmux.tmpDir, state.path));
    const id = `${tmux.name}:${agent.paneId}`;
    await until(bridge.hub, `the ${kind.harness} pane`, (h) => h.panes.get(id)?.harness === kind.harness, ms);
    return { tmux, api, state, agent, bridge, id, [Symbol.asyncDispose]: () => started[Symbol.asyncDispose]() };
  });
}

/** The real Codex TUI against the scripted Responses API. */
export const codexKind = (opts?: StartCodexOptions): LiveAgentKind<AgentApi, AgentPane> => ({ harness: 'codex', api: () => startResponsesApi(), agent: (tmux, api) => startCodex(tmux, api, opts) });
/** The real Gemini CLI against its scripted API. */
export const geminiKind = (opts?: StartGeminiOptions): LiveAgentKind<AgentApi, AgentPane> => ({ harness: 'gemini', api: () => startGeminiApi(), agent: (tmux, api) => startGemini(tmux, api, opts) });
/** The real OpenCode TUI against the scripted chat API. */
export const opencodeKind = (opts?: StartOpencodeOptions): LiveAgentKind<ChatApi, OpencodePane> => ({ harness: 'opencode', api: () => startChatApi(), agent: (tmux, api) => startOpencode(tmux, api, opts) });
/** The real omp TUI against the scripted chat API. */
export const ompKind = (opts?: StartOmpOptions): LiveAgentKind<ChatApi, AgentPane> => ({ harness: 'omp', api: () => startChatApi(), agent: (tmux, api) => startOmp(tmux, api, opts) });
/** The real pi TUI against the scripted chat API. */
export const piKind = (opts?: StartPiOptions): LiveAgentKind<ChatApi, AgentPane> => ({ harness: 'pi', api: () => startChatApi(), agent: (tmux, api) => startPi(tmux, api, opts) });
