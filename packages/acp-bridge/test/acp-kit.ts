import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { conversationKey, type DurableConversation, type DurableItem, type DurableQuestion, type TapResult } from '@collie/protocol';
import { tempDir, type AcpAgentCommand, type TempDir } from '@collie/testkit';
import { durableRegistry } from '../../bridge/src/commands/durable-registry';
import { agentIn, durableBridge, post } from '../../bridge/test/durable-kit';
import { until, type TestBridge } from '../../bridge/test/harness';
import { runAcp, type RunOptions, type Running } from '../src/run';

/** A bridge that reads sources.json, and `collie durable acp`'s runner listed in it, in one temp state. */
export interface AcpSetup extends AsyncDisposable {
  state: TempDir;
  config: string;
  env: NodeJS.ProcessEnv;
  bridge: TestBridge;
  running: Running;
  name: string;
}

export async function acpSetup(agent: AcpAgentCommand, o: Partial<RunOptions> = {}, name = 'acp'): Promise<AcpSetup> {
  const state = await tempDir('collie-acp-');
  const config = join(state.path, 'config');
  const env = { ...process.env, COLLIE_CONFIG_DIR: config, COLLIE_STATE_DIR: join(state.path, 'state') };
  // The config dir is there when the bridge starts, so it watches sources.json from the first
  // moment (a dir made after the bridge started is looked for every 5 s: acp-cli.test.ts's case).
  await mkdir(config, { recursive: true });
  const bridge = await durableBridge(state.path, config);
  const log: string[] = [];
  const running = await runAcp({ name, serve: false, agent, log: (l) => log.push(l), backoff: { first: 200, max: 1_000, healthyMs: 60_000 }, ...o }, durableRegistry(env));
  await agentIn(bridge.hub, name, 'ready', 30_000);
  return {
    state, config, env, bridge, running, name,
    async [Symbol.asyncDispose]() {
      await running.stop();
      await bridge[Symbol.asyncDispose]();
      await state[Symbol.asyncDispose]();
    },
  };
}

/** A bridge and the agent's name there: what the helpers below need. */
export type At = Pick<AcpSetup, 'bridge' | 'name'>;

/** The phone's taps, as the durable routes take them. */
export const tap = {
  start: (s: At, id: string): Promise<TapResult> => post(s.bridge, '/starter', { agent: s.name, starterId: 'new', request_id: id }),
  say: (s: At, conversationId: string, text: string, id: string): Promise<TapResult> => post(s.bridge, '/message', { agent: s.name, conversationId, text, steer: false, request_id: id }),
  stop: (s: At, conversationId: string, id: string): Promise<TapResult> => post(s.bridge, '/stop', { agent: s.name, conversationId, request_id: id }),
  answer: (s: At, conversationId: string, q: DurableQuestion, answer: unknown, id: string): Promise<TapResult> =>
    post(s.bridge, '/answer', { agent: s.name, conversationId, questionId: q.id, version: q.version, answer, request_id: id }),
  button: (s: At, conversationId: string, buttonId: string, turn: string, id: string): Promise<TapResult> => post(s.bridge, '/button', { agent: s.name, conversationId, buttonId, turn, request_id: id }),
};

export const items = (s: At, id: string): DurableItem[] => s.bridge.hub.durable.threads.get(conversationKey(s.name, id)) ?? [];
export const conv = (s: At, id: string): DurableConversation | undefined => s.bridge.hub.durable.conversations.get(conversationKey(s.name, id));

/** Waits until `check` finds something in the conversation as the bridge holds it. */
export function inConv<T>(s: At, id: string, what: string, check: (c: DurableConversation | undefined, items: DurableItem[]) => T | undefined | null | false, ms = 30_000): Promise<T> {
  return until(s.bridge.hub, what, () => check(conv(s, id), items(s, id)), ms).catch((err: Error) => {
    throw new Error(`${err.message.split(';')[0]}; working: ${String(conv(s, id)?.working)}; items: ${JSON.stringify(items(s, id).map((i) => [i.kind, 'text' in i ? i.text.slice(0, 80) : i.kind === 'tool' ? `${i.name} ${i.status}` : '']))}`);
  });
}

export const replyText = (xs: DurableItem[]): string => xs.filter((i) => i.kind === 'reply').map((i) => ('text' in i ? i.text : '')).join('|');

/** The text of the thread's last item when it is a notice. */
export const lastNotice = (xs: DurableItem[]): string | null => {
  const last = xs.at(-1);
  return last?.kind === 'notice' ? last.text : null;
};
