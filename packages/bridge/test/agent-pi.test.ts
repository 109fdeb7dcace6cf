import { describe, expect, it } from 'vitest';
import {
  chatLongTurn,
  chatReply,
  chatToolCall,
  piPermission,
  piReady,
  piWorking,
  startChatApi,
  startPi,
} from '@collie/testkit';
import { liveAgent, screenTurns } from './agent-live';
import { until } from './harness';
import { call, finalReceipt } from './send-helpers';

/**
 * The real pi 0.73 TUI through the real bridge, with pi's shipped permission-gate example
 * asking before `rm -rf`. Waits are generous (the machine is shared); the 1 s bounds are
 * between the screen and the bridge.
 */
const SLOW = 240_000;


describe('the real pi TUI through the bridge', () => {
  const live = liveAgent(startChatApi, (tmux, api) => startPi(tmux, api), SLOW);
  const { paneOf, stateOf, idle, seen } = live;

  it('idle → working → done → blocked → answered from the card → working → done, each within 1 s of the screen', { timeout: 900_000 }, async () => {
    expect(paneOf()?.harness).toBe('pi');

    live.api.script(chatLongTurn(8_000, 'Finished the long think.'));
    const working = until(live.bridge.hub, 'working', stateOf('working'), SLOW);
    const screenWorking = screenTurns(live.tmux, live.agent.paneId, piWorking, SLOW);
    await live.agent.submit('think for a while');
    const w = await working;
    expect(w.at - (await screenWorking)).toBeLessThan(1000);

    const done = until(live.bridge.hub, 'done', stateOf('done'), SLOW);
    const screenIdle = screenTurns(live.tmux, live.agent.paneId, (s) => s.includes('Finished the long think.') && piReady(s), SLOW);
    const d = await done;
    expect(d.at - (await screenIdle)).toBeLessThan(1000);
    await seen();

    // The turn after the answer streams slowly, so its working live.state is on screen long enough to see.
    live.api.script(chatToolCall('bash', { command: 'rm -rf made-by-card' })[0], chatLongTurn(4_000, 'The command finished.'));
    const blocked = until(live.bridge.hub, 'blocked with a card', () => { const p = paneOf(); return p?.state === 'blocked' && p.card ? { pane: p, at: Date.now() } : undefined; }, SLOW);
    const screenDialog = screenTurns(live.tmux, live.agent.paneId, piPermission, SLOW);
    await live.agent.submit('make the marker file');
    const b = await blocked;
    expect(b.at - (await screenDialog)).toBeLessThan(1000);
    expect(b.pane.dialog).toBe('permission');
    const card = b.pane.card!;
    expect(card).toMatchObject({ kind: 'permission', title: 'Dangerous command', question: 'Allow?', answerable: true });
    expect(card.body).toContain('rm -rf made-by-card');
    expect(card.options.map((o) => o.label)).toEqual(['Yes', 'No']);

    const afterCard = until(live.bridge.hub, 'working after the answer', stateOf('working'), SLOW);
    const screenClosed = screenTurns(live.tmux, live.agent.paneId, (s) => !piPermission(s) && piWorking(s), SLOW);
    const answered = await call(live.bridge, live.id, 'answer', { signature: card.signature, option: 1, request_id: 'pi-answer-1' });
    expect(answered.outcome).toBe('answered');
    const a = await afterCard;
    expect(a.at - (await screenClosed)).toBeLessThan(1000);
    const result = await live.api.waitForRequest((r) => r.kind === 'main' && r.toolResults.length > 0, SLOW);
    expect(result.toolResults[0]?.text).not.toMatch(/Blocked by user/i);
    const again = await until(live.bridge.hub, 'done after the card', stateOf('done'), SLOW);
    expect(again.pane.dialog).toBeNull();
    await seen();
  });

  it('reads a draft, and a send leaves it alone', { timeout: 300_000 }, async () => {
    await idle();
    await live.tmux.typeText(live.agent.paneId, 'my own half-written thought');
    await until(live.bridge.hub, 'the draft', () => paneOf()?.draft === 'my own half-written thought', SLOW);
    const r = await call(live.bridge, live.id, 'send', { text: 'should not be typed', request_id: 'pi-draft-1' });
    expect(r.outcome).toBe('not sent: draft present');
    expect(await live.agent.capture()).toContain('my own half-written thought');
    await live.tmux.sendKeys(live.agent.paneId, 'C-u');
    await idle();
  });

  it('idle: the text is typed and submitted once', { timeout: 300_000 }, async () => {
    live.api.script(chatReply('Got it.'));
    const before = live.api.requests.length;
    const r = await call(live.bridge, live.id, 'send', { text: 'hello from the phone', request_id: 'pi-idle-1' });
    expect(r.outcome).toBe('typed into the pane');
    const req = await live.api.waitForRequest((q) => q.kind === 'main' && q.seq >= before && q.prompt === 'hello from the phone', SLOW);
    expect(req.userMessages.filter((m) => m === 'hello from the phone')).toHaveLength(1);
    await live.agent.waitForScreen((s) => s.includes('Got it.') && piReady(s), SLOW);
    await idle();
    expect(live.api.requests.filter((q) => q.kind === 'main' && q.prompt === 'hello from the phone')).toHaveLength(1);
  });

  it('during a turn: held, then typed after it as a new user message', { timeout: 600_000 }, async () => {
    live.api.script(chatLongTurn(6_000, 'Long turn over.'), chatReply('Second answer.'));
    await live.agent.submit('start a long turn');
    await until(live.bridge.hub, 'working', () => paneOf()?.state === 'working', SLOW);
    const r = await call(live.bridge, live.id, 'send', { text: 'after the turn please', request_id: 'pi-held-1' });
    expect(r.outcome).toBe('held: agent working');
    expect((await finalReceipt(live.bridge, 'pi-held-1', SLOW)).outcome).toBe('typed into the pane');
    const req = await live.api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'after the turn please', SLOW);
    const turn = live.api.requests.find((q) => q.kind === 'main' && q.prompt === 'start a long turn')!;
    expect(req.at).toBeGreaterThan(turn.at + 5_000);
    expect(req.userMessages.at(-1)).toBe('after the turn please');
    await idle();
  });

  it('with an approval open: held, the card answered, then the held text typed', { timeout: 600_000 }, async () => {
    live.api.script(...chatToolCall('bash', { command: 'rm -rf from-the-card' }), chatReply('After the dialog.'));
    await live.agent.submit('run the command');
    const blocked = await until(live.bridge.hub, 'the permission card', () => { const p = paneOf(); return p?.state === 'blocked' && p.card && p; }, SLOW);
    const r = await call(live.bridge, live.id, 'send', { text: 'queued behind the dialog', request_id: 'pi-dialog-1' });
    expect(r.outcome).toBe('held: dialog open');
    const during = await live.agent.capture();
    expect(piPermission(during)).toBe(true);
    expect(during).not.toContain('queued behind the dialog');

    const stale = await call(live.bridge, live.id, 'answer', { signature: 'not-this-ask', option: 1, request_id: 'pi-stale-1' });
    expect(stale.outcome).toBe('not sent: the ask changed');
    const yes = await call(live.bridge, live.id, 'answer', { signature: blocked.card!.signature, option: 1, request_id: 'pi-answer-2' });
    expect(yes.outcome).toBe('answered');
    const result = await live.api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'run the command' && q.toolResults.length > 0, SLOW);
    expect((await finalReceipt(live.bridge, 'pi-dialog-1', SLOW)).outcome).toBe('typed into the pane');
    const held = await live.api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'queued behind the dialog', SLOW);
    expect(held.seq).toBeGreaterThan(result.seq);
    await idle();
  });
});
