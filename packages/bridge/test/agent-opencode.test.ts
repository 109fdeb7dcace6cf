import { describe, expect, it } from 'vitest';
import {
  chatLongTurn,
  chatReply,
  chatToolCall,
  opencodePermission,
  opencodeReady,
  opencodeWorking,
  startChatApi,
  startOpencode,
} from '@collie/testkit';
import { liveAgent, screenTurns } from './agent-live';
import { sendProtocolTests } from './agent-sends';
import { until } from './harness';
import { call } from './send-helpers';

/**
 * The real OpenCode 1.18 TUI through the real bridge. A fresh OpenCode takes 5 s to start on
 * an idle machine and was seen taking 100 s on this shared one, and its first turn another
 * minute, so every wait is generous; the 1 s bounds are between the screen and the bridge.
 */
const SLOW = 240_000;


describe('the real OpenCode TUI through the bridge', () => {
  const live = liveAgent(startChatApi, (tmux, api) => startOpencode(tmux, api), SLOW);
  const { paneOf, stateOf, seen } = live;

  it('idle → working → done → blocked → answered from the card → working → done, each within 1 s of the screen', { timeout: 900_000 }, async () => {
    expect(paneOf()?.harness).toBe('opencode');

    live.api.script(chatLongTurn(8_000, 'Finished the long think.'));
    const working = until(live.bridge.hub, 'working', stateOf('working'), SLOW);
    const screenWorking = screenTurns(live.tmux, live.agent.paneId, opencodeWorking, SLOW);
    await live.agent.submit('think for a while');
    const w = await working;
    expect(w.at - (await screenWorking)).toBeLessThan(1000);

    const done = until(live.bridge.hub, 'done', stateOf('done'), SLOW);
    const screenIdle = screenTurns(live.tmux, live.agent.paneId, (s) => s.includes('Finished the long think.') && opencodeReady(s), SLOW);
    const d = await done;
    expect(d.at - (await screenIdle)).toBeLessThan(1000);
    await seen();

    live.api.script(...chatToolCall('bash', { command: 'touch made-by-card', description: 'Create a marker file' }));
    const blocked = until(live.bridge.hub, 'blocked with a card', () => { const p = paneOf(); return p?.state === 'blocked' && p.card ? { pane: p, at: Date.now() } : undefined; }, SLOW);
    const screenDialog = screenTurns(live.tmux, live.agent.paneId, opencodePermission, SLOW);
    await live.agent.submit('make the marker file');
    const b = await blocked;
    expect(b.at - (await screenDialog)).toBeLessThan(1000);
    expect(b.pane.dialog).toBe('permission');
    const card = b.pane.card!;
    expect(card).toMatchObject({ kind: 'permission', title: 'Shell command', question: 'Permission required', answerable: true });
    expect(card.body).toContain('$ touch made-by-card');
    expect(card.options.map((o) => o.label)).toEqual(['Allow once', 'Allow always', 'Reject']);

    const afterCard = until(live.bridge.hub, 'working or done after the answer', () => { const p = paneOf(); return p && p.state !== 'blocked' ? { pane: p, at: Date.now() } : undefined; }, SLOW);
    const screenClosed = screenTurns(live.tmux, live.agent.paneId, (s) => !opencodePermission(s), SLOW);
    const answered = await call(live.bridge, live.id, 'answer', { signature: card.signature, option: 1, request_id: 'oc-answer-1' });
    expect(answered.outcome).toBe('answered');
    const a = await afterCard;
    expect(a.at - (await screenClosed)).toBeLessThan(1000);
    const result = await live.api.waitForRequest((r) => r.kind === 'main' && r.toolResults.length > 0, SLOW);
    expect(result.toolResults[0]?.text).not.toMatch(/rejected|denied/i);
    const again = await until(live.bridge.hub, 'done after the card', stateOf('done'), SLOW);
    expect(again.pane.dialog).toBeNull();
    await seen();
  });

  sendProtocolTests(live, {
    prefix: 'oc',
    ready: opencodeReady,
    asks: opencodePermission,
    reply: chatReply,
    longTurn: chatLongTurn,
    askingCall: () => chatToolCall('bash', { command: 'touch from-the-card', description: 'Create a marker file' }),
    slowMs: SLOW,
  });
});
