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
import { sendProtocolTests } from './agent-sends';
import { until } from './harness';
import { call } from './send-helpers';

/**
 * The real pi 0.73 TUI through the real bridge, with pi's shipped permission-gate example
 * asking before `rm -rf`. Waits are generous (the machine is shared); the 1 s bounds are
 * between the screen and the bridge.
 */
const SLOW = 240_000;


describe('the real pi TUI through the bridge', () => {
  const live = liveAgent(startChatApi, (tmux, api) => startPi(tmux, api), SLOW);
  const { paneOf, stateOf, seen } = live;

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

  sendProtocolTests(live, {
    prefix: 'pi',
    ready: piReady,
    asks: piPermission,
    reply: chatReply,
    longTurn: chatLongTurn,
    askingCall: () => chatToolCall('bash', { command: 'rm -rf from-the-card' }),
    slowMs: SLOW,
  });
});
