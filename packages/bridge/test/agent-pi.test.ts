import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pane } from '@collie/protocol';
import {
  chatLongTurn,
  chatReply,
  chatToolCall,
  piPermission,
  piReady,
  piWorking,
  startChatApi,
  startPi,
  startTmux,
  tempDir,
  type ChatApi,
  type AgentPane,
  type TempDir,
  type TmuxServer,
} from '@collie/testkit';
import { bridgeFor, type TestBridge, until } from './harness';
import { call, finalReceipt } from './send-helpers';

/**
 * The real pi 0.73 TUI through the real bridge, with pi's shipped permission-gate example
 * asking before `rm -rf`. Waits are generous (the machine is shared); the 1 s bounds are
 * between the screen and the bridge.
 */
const SLOW = 240_000;

/** When `predicate` first holds on the pane's screen, read as often as tmux allows. */
async function screenTurns(tmux: TmuxServer, pane: string, predicate: (s: string) => boolean, ms = SLOW): Promise<number> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (predicate(await tmux.capture(pane))) return Date.now();
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the screen never turned: ${await tmux.capture(pane)}`);
}

describe('the real pi TUI through the bridge', () => {
  let tmux: TmuxServer;
  let api: ChatApi;
  let state: TempDir;
  let oc: AgentPane;
  let bridge: TestBridge;
  let id: string;
  const paneOf = (): Pane | undefined => bridge.hub.panes.get(id);
  const stateOf = (want: Pane['state']) => () => {
    const p = paneOf();
    return p?.state === want ? { pane: p, at: Date.now() } : undefined;
  };
  const idle = () =>
    until(bridge.hub, 'the pane idle and empty', () => { const p = paneOf(); return p && (p.state === 'idle' || p.state === 'done') && p.draft === null && p.dialog === null && p; }, SLOW);
  const seen = async () => {
    const res = await fetch(`${bridge.url}/api/panes/${encodeURIComponent(id)}/seen`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: '{}' });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    tmux = await startTmux();
    api = await startChatApi();
    state = await tempDir('collie-state');
    oc = await startPi(tmux, api);
    bridge = await bridgeFor(tmux.tmpDir, state.path);
    id = `${tmux.name}:${oc.paneId}`;
    await idle();
  }, 300_000);

  afterAll(async () => {
    await bridge?.stop();
    await oc?.kill();
    await api?.close();
    await tmux?.kill();
    await state?.remove();
  });

  it('idle → working → done → blocked → answered from the card → working → done, each within 1 s of the screen', { timeout: 900_000 }, async () => {
    expect(paneOf()?.harness).toBe('pi');

    api.script(chatLongTurn(8_000, 'Finished the long think.'));
    const working = until(bridge.hub, 'working', stateOf('working'), SLOW);
    const screenWorking = screenTurns(tmux, oc.paneId, piWorking);
    await oc.submit('think for a while');
    const w = await working;
    expect(w.at - (await screenWorking)).toBeLessThan(1000);

    const done = until(bridge.hub, 'done', stateOf('done'), SLOW);
    const screenIdle = screenTurns(tmux, oc.paneId, (s) => s.includes('Finished the long think.') && piReady(s));
    const d = await done;
    expect(d.at - (await screenIdle)).toBeLessThan(1000);
    await seen();

    // The turn after the answer streams slowly, so its working state is on screen long enough to see.
    api.script(chatToolCall('bash', { command: 'rm -rf made-by-card' })[0], chatLongTurn(4_000, 'The command finished.'));
    const blocked = until(bridge.hub, 'blocked with a card', () => { const p = paneOf(); return p?.state === 'blocked' && p.card ? { pane: p, at: Date.now() } : undefined; }, SLOW);
    const screenDialog = screenTurns(tmux, oc.paneId, piPermission);
    await oc.submit('make the marker file');
    const b = await blocked;
    expect(b.at - (await screenDialog)).toBeLessThan(1000);
    expect(b.pane.dialog).toBe('permission');
    const card = b.pane.card!;
    expect(card).toMatchObject({ kind: 'permission', title: 'Dangerous command', question: 'Allow?', answerable: true });
    expect(card.body).toContain('rm -rf made-by-card');
    expect(card.options.map((o) => o.label)).toEqual(['Yes', 'No']);

    const afterCard = until(bridge.hub, 'working after the answer', stateOf('working'), SLOW);
    const screenClosed = screenTurns(tmux, oc.paneId, (s) => !piPermission(s) && piWorking(s));
    const answered = await call(bridge, id, 'answer', { signature: card.signature, option: 1, request_id: 'pi-answer-1' });
    expect(answered.outcome).toBe('answered');
    const a = await afterCard;
    expect(a.at - (await screenClosed)).toBeLessThan(1000);
    const result = await api.waitForRequest((r) => r.kind === 'main' && r.toolResults.length > 0, SLOW);
    expect(result.toolResults[0]?.text).not.toMatch(/Blocked by user/i);
    const again = await until(bridge.hub, 'done after the card', stateOf('done'), SLOW);
    expect(again.pane.dialog).toBeNull();
    await seen();
  });

  it('reads a draft, and a send leaves it alone', { timeout: 300_000 }, async () => {
    await idle();
    await tmux.typeText(oc.paneId, 'my own half-written thought');
    await until(bridge.hub, 'the draft', () => paneOf()?.draft === 'my own half-written thought', SLOW);
    const r = await call(bridge, id, 'send', { text: 'should not be typed', request_id: 'pi-draft-1' });
    expect(r.outcome).toBe('not sent: draft present');
    expect(await oc.capture()).toContain('my own half-written thought');
    await tmux.sendKeys(oc.paneId, 'C-u');
    await idle();
  });

  it('idle: the text is typed and submitted once', { timeout: 300_000 }, async () => {
    api.script(chatReply('Got it.'));
    const before = api.requests.length;
    const r = await call(bridge, id, 'send', { text: 'hello from the phone', request_id: 'pi-idle-1' });
    expect(r.outcome).toBe('typed into the pane');
    const req = await api.waitForRequest((q) => q.kind === 'main' && q.seq >= before && q.prompt === 'hello from the phone', SLOW);
    expect(req.userMessages.filter((m) => m === 'hello from the phone')).toHaveLength(1);
    await oc.waitForScreen((s) => s.includes('Got it.') && piReady(s), SLOW);
    await idle();
    expect(api.requests.filter((q) => q.kind === 'main' && q.prompt === 'hello from the phone')).toHaveLength(1);
  });

  it('during a turn: held, then typed after it as a new user message', { timeout: 600_000 }, async () => {
    api.script(chatLongTurn(6_000, 'Long turn over.'), chatReply('Second answer.'));
    await oc.submit('start a long turn');
    await until(bridge.hub, 'working', () => paneOf()?.state === 'working', SLOW);
    const r = await call(bridge, id, 'send', { text: 'after the turn please', request_id: 'pi-held-1' });
    expect(r.outcome).toBe('held: agent working');
    expect((await finalReceipt(bridge, 'pi-held-1', SLOW)).outcome).toBe('typed into the pane');
    const req = await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'after the turn please', SLOW);
    const turn = api.requests.find((q) => q.kind === 'main' && q.prompt === 'start a long turn')!;
    expect(req.at).toBeGreaterThan(turn.at + 5_000);
    expect(req.userMessages.at(-1)).toBe('after the turn please');
    await idle();
  });

  it('with an approval open: held, the card answered, then the held text typed', { timeout: 600_000 }, async () => {
    api.script(...chatToolCall('bash', { command: 'rm -rf from-the-card' }), chatReply('After the dialog.'));
    await oc.submit('run the command');
    const blocked = await until(bridge.hub, 'the permission card', () => { const p = paneOf(); return p?.state === 'blocked' && p.card && p; }, SLOW);
    const r = await call(bridge, id, 'send', { text: 'queued behind the dialog', request_id: 'pi-dialog-1' });
    expect(r.outcome).toBe('held: dialog open');
    const during = await oc.capture();
    expect(piPermission(during)).toBe(true);
    expect(during).not.toContain('queued behind the dialog');

    const stale = await call(bridge, id, 'answer', { signature: 'not-this-ask', option: 1, request_id: 'pi-stale-1' });
    expect(stale.outcome).toBe('not sent: the ask changed');
    const yes = await call(bridge, id, 'answer', { signature: blocked.card!.signature, option: 1, request_id: 'pi-answer-2' });
    expect(yes.outcome).toBe('answered');
    const result = await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'run the command' && q.toolResults.length > 0, SLOW);
    expect((await finalReceipt(bridge, 'pi-dialog-1', SLOW)).outcome).toBe('typed into the pane');
    const held = await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'queued behind the dialog', SLOW);
    expect(held.seq).toBeGreaterThan(result.seq);
    await idle();
  });
});
