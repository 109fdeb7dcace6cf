import { expect, it } from 'vitest';
import type { DialogCard, Pane } from '@collie/protocol';
import { agentLongTurn, agentShell, chatLongTurn, type AgentApi, type AgentPane, type ChatApi, type ChatScript } from '@collie/testkit';
import { orExplain, screenTurns, type LiveAgent } from './agent-live';
import { until } from './harness';
import { call } from './send-helpers';

/** What the lifecycle test needs to know of one agent on the chat API (OpenCode, pi, omp). */
export interface LifecycleCase {
  /** The pane's harness. */
  harness: string;
  /** The answer's request id is `<prefix>-answer-1`. */
  prefix: string;
  /** The screen shows a turn running. */
  working(screen: string): boolean;
  /** The screen at rest, its input ready. */
  ready(screen: string): boolean;
  /** The agent's approval dialog is on the screen. */
  asks(screen: string): boolean;
  /** The scripted turns of a command the agent asks about, and what follows once it ran. */
  askingTurns(): ChatScript[];
  /** Checks the card of that approval. */
  card(card: DialogCard): void;
  /** What the pane is once the card is answered: working, or anything but blocked. */
  afterAnswer: 'working' | 'unblocked';
  /** The screen once the dialog closed. */
  closed(screen: string): boolean;
  /** Checks the tool result the model got back: the command was not refused. */
  ran(text: string | undefined): void;
  /** The phone opens the pane after each turn (`seen`), and the pane is done with no dialog. */
  seen: boolean;
  slowMs: number;
}

/**
 * idle → working → done → blocked → answered from the card → working → done on one real
 * agent's pane, each state within 1 s of the agent's screen showing it. Call it inside the
 * agent's `describe`, after its `liveAgent`.
 */
export function lifecycleTest(live: LiveAgent<ChatApi, AgentPane>, c: LifecycleCase): void {
  const { paneOf, stateOf, seen } = live;
  const SLOW = c.slowMs;
  it('idle → working → done → blocked → answered from the card → working → done, each within 1 s of the screen', { timeout: 900_000 }, async () => {
    expect(paneOf()?.harness).toBe(c.harness);

    live.api.script(chatLongTurn(8_000, 'Finished the long think.'));
    const working = until(live.bridge.hub, 'working', stateOf('working'), SLOW);
    const screenWorking = screenTurns(live.tmux, live.agent.paneId, c.working, SLOW);
    await live.agent.submit('think for a while');
    const w = await working;
    expect(w.at - (await screenWorking)).toBeLessThan(1000);

    const done = until(live.bridge.hub, 'done', stateOf('done'), SLOW);
    const screenIdle = screenTurns(live.tmux, live.agent.paneId, (s) => s.includes('Finished the long think.') && c.ready(s), SLOW);
    const d = await done;
    expect(d.at - (await screenIdle)).toBeLessThan(1000);
    if (c.seen) await seen();

    live.api.script(...c.askingTurns());
    const blocked = until(live.bridge.hub, 'blocked with a card', () => { const p = paneOf(); return p?.state === 'blocked' && p.card ? { pane: p, at: Date.now() } : undefined; }, SLOW);
    const screenDialog = screenTurns(live.tmux, live.agent.paneId, c.asks, SLOW);
    await live.agent.submit('make the marker file');
    const b = await blocked;
    expect(b.at - (await screenDialog)).toBeLessThan(1000);
    expect(b.pane.dialog).toBe('permission');
    const card = b.pane.card!;
    c.card(card);

    const notBlocked = () => { const p: Pane | undefined = paneOf(); return p && p.state !== 'blocked' ? { pane: p, at: Date.now() } : undefined; };
    const afterCard = c.afterAnswer === 'working' ? until(live.bridge.hub, 'working after the answer', stateOf('working'), SLOW) : until(live.bridge.hub, 'working or done after the answer', notBlocked, SLOW);
    const screenClosed = screenTurns(live.tmux, live.agent.paneId, c.closed, SLOW);
    const answered = await call(live.bridge, live.id, 'answer', { signature: card.signature, option: 1, request_id: `${c.prefix}-answer-1` });
    expect(answered.outcome).toBe('answered');
    const a = await afterCard;
    expect(a.at - (await screenClosed)).toBeLessThan(1000);
    const result = await live.api.waitForRequest((r) => r.kind === 'main' && r.toolResults.length > 0, SLOW);
    c.ran(result.toolResults[0]?.text);
    const again = await until(live.bridge.hub, 'done after the card', stateOf('done'), SLOW);
    if (c.seen) {
      expect(again.pane.dialog).toBeNull();
      await seen();
    }
  });
}

/** What the lifecycle test needs to know of one agent on the Responses or Gemini wire (Codex, Gemini CLI). */
export interface ApprovalLifecycleCase {
  harness: string;
  /** The answer's request id is `<prefix>-answer-1`. */
  prefix: string;
  /** The screen shows a turn running. */
  working(screen: string): boolean;
  /** The long turn's reply as the screen shows it streaming. */
  streams: RegExp;
  /** The screen once the long turn is done. */
  doneScreen(screen: string): boolean;
  /** The agent's approval dialog is on the screen. */
  asks(screen: string): boolean;
  /** Checks the card of that approval. */
  card(card: DialogCard): void;
  /** The shell's output as the model got it back. */
  output: RegExp;
  /** The screen once the turn after the answer is done. */
  doneAgainScreen(screen: string): boolean;
  /** When the wait for the card times out, say what the screen and the model's requests were. */
  explain?: boolean;
}

/**
 * idle → working → done, then blocked on an approval, answered from the card → working → done
 * on one real agent's pane, each within 1 s of its screen. Call it inside the agent's `describe`,
 * after its `liveAgent`.
 */
export function approvalLifecycleTest(live: LiveAgent<AgentApi, AgentPane>, c: ApprovalLifecycleCase): void {
  const { paneOf, stateOf } = live;
  it('idle → working → done, then blocked on an approval, answered from the card → working → done; each within 1 s of the screen', async () => {
    expect(paneOf()?.harness).toBe(c.harness);
    // A long turn: working from the status row on, and all the while its reply streams.
    live.api.script(agentLongTurn(6_000, 'Reading the parser one module at a time before changing anything.'));
    const working = until(live.bridge.hub, 'working', stateOf('working'), 30_000);
    const screenWorking = screenTurns(live.tmux, live.agent.paneId, c.working);
    await live.agent.submit('explain the parser');
    expect((await working).at - (await screenWorking)).toBeLessThan(1000);
    await live.agent.waitForScreen(c.streams, 20_000);
    expect(paneOf()?.state).toBe('working');

    const done = until(live.bridge.hub, 'done', stateOf('done'), 30_000);
    const screenDone = screenTurns(live.tmux, live.agent.paneId, c.doneScreen);
    expect((await done).at - (await screenDone)).toBeLessThan(1000);

    // The approval: blocked with its card, answered through the bridge.
    live.api.script(...agentShell('touch made-by-card', { reason: 'Create the marker file', closingMs: 3_000 }));
    const blocked = until(live.bridge.hub, 'blocked', () => { const p = paneOf(); return p?.state === 'blocked' && p.card ? { pane: p, at: Date.now() } : undefined; }, 30_000);
    const screenBlocked = screenTurns(live.tmux, live.agent.paneId, c.asks);
    await live.agent.submit('make the marker file');
    const b = await (c.explain ? orExplain(blocked, live.tmux, live.agent.paneId, live.api) : blocked);
    expect(b.at - (await screenBlocked)).toBeLessThan(1000);
    expect(b.pane.dialog).toBe('permission');
    c.card(b.pane.card!);

    const afterAnswer = until(live.bridge.hub, 'working after the answer', stateOf('working'), 30_000);
    const r = await call(live.bridge, live.id, 'answer', { signature: b.pane.card!.signature, option: 1, request_id: `${c.prefix}-answer-1` });
    expect(r.outcome).toBe('answered');
    await afterAnswer;
    const req = await live.api.waitForRequest((q) => q.kind === 'main' && q.toolOutputs.length > 0, 20_000);
    expect(req.toolOutputs.at(-1)).toMatch(c.output);
    const doneAgain = until(live.bridge.hub, 'done after the answer', stateOf('done'), 30_000);
    const screenDoneAgain = screenTurns(live.tmux, live.agent.paneId, c.doneAgainScreen);
    expect((await doneAgain).at - (await screenDoneAgain)).toBeLessThan(1000);
  });
}
