import { afterAll, beforeAll, expect } from 'vitest';
import type { DialogCard, Pane } from '@collie/protocol';
import type { AgentPane, TempDir, TmuxServer } from '@collie/testkit';
import { type TestBridge, until } from './harness';
import { liveAgentPane, type LiveAgentKind, type LiveAgentPane } from './live-rig';
import { call } from './send-helpers';

/** When `predicate` first holds on the pane's screen, read as often as tmux allows (~every 20 ms). */
export async function screenTurns(tmux: TmuxServer, pane: string, predicate: (s: string) => boolean, ms = 30_000): Promise<number> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (predicate(await tmux.capture(pane))) return Date.now();
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the screen never turned: ${await tmux.capture(pane)}`);
}

/**
 * One real agent in a private tmux pane against its scripted API, read by a real bridge (the
 * live rig's {@link liveAgentPane}): set up before the tests of the describe it is called in
 * (the pane idle and empty), torn down after. Its fields are there from the first test on.
 */
export interface LiveAgent<Api, A extends AgentPane> {
  tmux: TmuxServer;
  api: Api;
  state: TempDir;
  agent: A;
  bridge: TestBridge;
  /** The pane's id on the bridge. */
  id: string;
  paneOf(): Pane | undefined;
  /** A predicate for `until`: the pane in state `want`, with when it was seen so. */
  stateOf(want: Pane['state']): () => { pane: Pane; at: number } | undefined;
  /** Resolves once the pane is idle or done with an empty box and no dialog. */
  idle(): Promise<Pane>;
  /** The phone opened the pane (`POST …/seen`). */
  seen(): Promise<void>;
}

export function liveAgent<Api extends AsyncDisposable, A extends AgentPane>(kind: LiveAgentKind<Api, A>, slowMs: number): LiveAgent<Api, A> {
  let desk: LiveAgentPane<Api, A> | undefined;
  const live = {
    paneOf: () => live.bridge.hub.panes.get(live.id),
    stateOf: (want: Pane['state']) => () => {
      const p = live.paneOf();
      return p?.state === want ? { pane: p, at: Date.now() } : undefined;
    },
    idle: () =>
      until(live.bridge.hub, 'the pane idle and empty', () => { const p = live.paneOf(); return p && (p.state === 'idle' || p.state === 'done') && p.draft === null && p.dialog === null && p; }, slowMs),
    async seen() {
      const res = await fetch(`${live.bridge.url}/api/panes/${encodeURIComponent(live.id)}/seen`, { method: 'POST', headers: { 'content-type': 'application/json', ...live.bridge.device.headers }, body: '{}' });
      expect(res.status).toBe(200);
    },
  } as LiveAgent<Api, A>;
  beforeAll(async () => {
    desk = await liveAgentPane(kind, slowMs);
    Object.assign(live, { tmux: desk.tmux, api: desk.api, state: desk.state, agent: desk.agent, bridge: desk.bridge, id: desk.id });
    await live.idle();
  }, 300_000);
  afterAll(async () => {
    await desk?.[Symbol.asyncDispose]();
  });
  return live;
}

/**
 * Waits until the bridge shows pane `id` blocked with a card that `want` accepts, then answers
 * option `option` through the phone's route with the card's signature, and waits until that
 * card is gone (the agent took the keys); resolves to the answered card.
 */
export async function answerCard(
  bridge: TestBridge,
  id: string,
  want: (card: DialogCard) => boolean,
  option: number,
  ms = 60_000,
): Promise<DialogCard> {
  const card = await until(bridge.hub, 'an answerable card', () => {
    const p = bridge.hub.panes.get(id);
    return p?.state === 'blocked' && p.card && want(p.card) ? p.card : undefined;
  }, ms);
  const r = await call(bridge, id, 'answer', { signature: card.signature, option, request_id: `card-${card.signature}-${option}` });
  expect(r.outcome).toBe('answered');
  await until(bridge.hub, 'the card answered', () => bridge.hub.panes.get(id)?.card?.signature !== card.signature || undefined, ms);
  return card;
}

/**
 * `wait`, or its error with what explains it: the pane's screen and the model's last requests
 * (a real agent under load is the one part of these tests that nobody here controls).
 */
export async function orExplain<T>(
  wait: Promise<T>,
  tmux: TmuxServer,
  pane: string,
  api?: { requests: readonly { seq: number; kind: string; prompt: string; scripted: boolean; aborted: boolean }[] },
): Promise<T> {
  try {
    return await wait;
  } catch (err) {
    const screen = await tmux.capture(pane).catch((e: unknown) => `(no screen: ${String(e)})`);
    const requests = (api?.requests ?? []).slice(-8).map((r) => `#${r.seq} ${r.kind}${r.scripted ? '' : ' unscripted'}${r.aborted ? ' aborted' : ''} ${JSON.stringify(r.prompt.slice(0, 60))}`);
    throw new Error(`${(err as Error).message}\n--- screen ---\n${screen}\n--- last requests ---\n${requests.join('\n')}`);
  }
}
