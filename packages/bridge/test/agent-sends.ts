import { expect, it } from 'vitest';
import type { AgentPane, TmuxServer } from '@collie/testkit';
import { orExplain, type LiveAgent } from './agent-live';
import { until } from './harness';
import { call, finalReceipt } from './send-helpers';

/** A request the scripted API recorded, as these tests read it (the Responses and Gemini wires say `toolOutputs`, the chat wire `toolResults`). */
type Recorded = { kind: string; seq: number; at: number; prompt: string; userMessages: readonly string[]; scripted: boolean; aborted: boolean } & ({ toolOutputs: readonly unknown[] } | { toolResults: readonly unknown[] });

/** The scripted API of one agent, as far as these tests use it. */
export interface ScriptedApi<Item, R extends Recorded> {
  script(...items: Item[]): void;
  readonly requests: readonly R[];
  waitForRequest(predicate: (r: R) => boolean, timeoutMs?: number): Promise<R>;
  close(): Promise<void>;
}

/** What the send-protocol tests need to know of one agent. */
export interface SendCase<Item> {
  /** Request ids start with it (`<prefix>-idle-1`). */
  prefix: string;
  /** The agent's screen at rest: its input ready, no turn running. */
  ready(screen: string): boolean;
  /** The agent's approval dialog is on the screen. */
  asks(screen: string): boolean;
  /** What else the held send's screen shows of the approval, if anything is worth checking. */
  dialogShows?: RegExp;
  /** A scripted plain reply. */
  reply(text: string): Item;
  /** A scripted turn that streams `text` over `ms`. */
  longTurn(ms: number, text: string): Item;
  /** A scripted tool call the agent asks about before it runs it. */
  askingCall(): Item[];
  /** Empties the agent's input as a person would (default: Ctrl+U once). */
  clear?(agent: AgentPane, tmux: TmuxServer): Promise<void>;
  /** The bound of every wait (the machine is shared; real agents are slow under load). */
  slowMs: number;
}

const toolDone = (r: Recorded) => ('toolOutputs' in r ? r.toolOutputs : r.toolResults).length > 0;
const THOUGHT = 'my own half-written thought';
const LONG_MS = 6_000;

/**
 * The send protocol on one real agent's pane, through the real bridge: a draft is left alone,
 * an idle send is typed and submitted once, a send during a turn is held and typed after it
 * as a new message, a send behind an approval is held until the card's answer ran. The same
 * four tests for every agent; call it inside the agent's `describe`, after its `liveAgent`.
 */
export function sendProtocolTests<Item, R extends Recorded, A extends ScriptedApi<Item, R>>(live: LiveAgent<A, AgentPane>, c: SendCase<Item>): void {
  const mains = () => live.api.requests.filter((r) => r.kind === 'main');
  const send = (text: string, name: string) => call(live.bridge, live.id, 'send', { text, request_id: `${c.prefix}-${name}` });

  it('reads a draft, and a send leaves it alone', { timeout: c.slowMs + 60_000 }, async () => {
    await live.idle();
    await live.tmux.typeText(live.agent.paneId, THOUGHT);
    await until(live.bridge.hub, 'the draft', () => live.paneOf()?.draft === THOUGHT, c.slowMs);
    const before = mains().length;
    const r = await send('should not be typed', 'draft-1');
    expect(r.outcome).toBe('not sent: draft present');
    expect(await live.agent.capture()).toContain(THOUGHT);
    if (c.clear) await c.clear(live.agent, live.tmux);
    else await live.tmux.sendKeys(live.agent.paneId, 'C-u');
    await live.idle();
    expect(mains().length).toBe(before);
  });

  it('idle: the text is typed and submitted once', { timeout: c.slowMs + 60_000 }, async () => {
    await live.idle();
    live.api.script(c.reply('Got it.'));
    const before = live.api.requests.length;
    const r = await send('hello from the phone', 'idle-1');
    expect(r.outcome).toBe('typed into the pane');
    const req = await live.api.waitForRequest((q) => q.kind === 'main' && q.seq >= before && q.prompt === 'hello from the phone', c.slowMs);
    expect(req.userMessages.filter((m) => m === 'hello from the phone')).toHaveLength(1);
    await live.agent.waitForScreen((s) => s.includes('Got it.') && c.ready(s), c.slowMs);
    await live.idle();
    expect(mains().filter((q) => q.prompt === 'hello from the phone')).toHaveLength(1);
  });

  it('during a turn: held, then typed after it as a new user message', { timeout: 2 * c.slowMs + 60_000 }, async () => {
    await live.idle();
    live.api.script(c.longTurn(LONG_MS, 'Long turn over.'), c.reply('Second answer.'));
    await live.agent.submit('start a long turn');
    await until(live.bridge.hub, 'working', () => live.paneOf()?.state === 'working', c.slowMs);
    const r = await send('after the turn please', 'held-1');
    expect(r.outcome).toBe('held: agent working');
    expect((await finalReceipt(live.bridge, `${c.prefix}-held-1`, c.slowMs)).outcome).toBe('typed into the pane');
    const req = await live.api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'after the turn please', c.slowMs);
    const turn = mains().find((q) => q.prompt === 'start a long turn')!;
    expect(req.at).toBeGreaterThan(turn.at + LONG_MS - 1_000);
    // A new user message after the finished turn, not words added to the turn's own.
    expect(req.userMessages.at(-1)).toBe('after the turn please');
    expect(req.userMessages).toContain('start a long turn');
    await live.agent.waitForScreen((s) => s.includes('Second answer.') && c.ready(s), c.slowMs);
    await live.idle();
  });

  it('with an approval open: held, the card answered, then the held text typed', { timeout: 2 * c.slowMs + 60_000 }, async () => {
    await live.idle();
    live.api.script(...c.askingCall(), c.reply('After the approval.'));
    await live.agent.submit('run the command');
    const blocked = await orExplain(
      until(live.bridge.hub, 'the approval card', () => { const p = live.paneOf(); return p?.state === 'blocked' && p.card && p; }, c.slowMs),
      live.tmux,
      live.agent.paneId,
      live.api,
    );
    const r = await send('queued behind the approval', 'dialog-1');
    expect(r.outcome).toBe('held: dialog open');
    const during = await live.agent.capture();
    expect(c.asks(during)).toBe(true);
    if (c.dialogShows) expect(during).toMatch(c.dialogShows);
    expect(during).not.toContain('queued behind the approval');

    const stale = await call(live.bridge, live.id, 'answer', { signature: 'not-this-ask', option: 1, request_id: `${c.prefix}-stale-1` });
    expect(stale.outcome).toBe('not sent: the ask changed');
    // The card as it is now, as the phone shows it. An agent may draw its dialog again (under
    // load a first read can catch it half drawn), which gives the card a new signature; the
    // answer is then refused as "the ask changed", and a person taps the card they see again.
    let yes = await call(live.bridge, live.id, 'answer', { signature: blocked.card!.signature, option: 1, request_id: `${c.prefix}-answer-2` });
    for (let i = 3; yes.outcome === 'not sent: the ask changed' && i < 6; i++) {
      const current = live.paneOf()?.card;
      if (!current) break;
      yes = await call(live.bridge, live.id, 'answer', { signature: current.signature, option: 1, request_id: `${c.prefix}-answer-${i}` });
    }
    expect(yes.outcome).toBe('answered');
    const result = await live.api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'run the command' && toolDone(q), c.slowMs);
    expect((await finalReceipt(live.bridge, `${c.prefix}-dialog-1`, c.slowMs)).outcome).toBe('typed into the pane');
    const held = await live.api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'queued behind the approval', c.slowMs);
    expect(held.seq).toBeGreaterThan(result.seq);
    await live.agent.waitForScreen((s) => s.includes('After the approval.') && c.ready(s), c.slowMs);
    await live.idle();
  });
}
