import { describe, expect, it } from 'vitest';
import {
  chatLongTurn,
  chatReply,
  chatToolCall,
  ompApproval,
  ompCommand,
  ompReady,
  ompWorking,
  startChatApi,
  startOmp,
} from '@collie/testkit';
import { liveAgent, screenTurns } from './agent-live';
import { sendProtocolTests } from './agent-sends';
import { until } from './harness';
import { call } from './send-helpers';

/**
 * The real omp (`@oh-my-pi/pi-coding-agent` 18.2.3 under Bun; 18.3.4 cannot be installed, see
 * docs/agents.md) through the real bridge, with `tools.approvalMode: write` so that bash asks.
 * Waits are generous (the machine is shared); the 1 s bounds are between the screen and the bridge.
 */
const SLOW = 240_000;
const cmd = ompCommand();
const missing = 'missing' in cmd ? cmd.missing : null;
if (missing) console.log(`agent-omp: skipped: ${missing}`);

describe.skipIf(missing !== null)('the real omp TUI through the bridge', () => {
  const live = liveAgent(startChatApi, (tmux, api) => startOmp(tmux, api), SLOW);
  const { paneOf, stateOf, idle } = live;

  it('idle → working → done → blocked → answered from the card → working → done, each within 1 s of the screen', { timeout: 900_000 }, async () => {
    expect(paneOf()?.harness).toBe('omp');

    live.api.script(chatLongTurn(8_000, 'Finished the long think.'));
    const working = until(live.bridge.hub, 'working', stateOf('working'), SLOW);
    const screenWorking = screenTurns(live.tmux, live.agent.paneId, ompWorking, SLOW);
    await live.agent.submit('think for a while');
    const w = await working;
    expect(w.at - (await screenWorking)).toBeLessThan(1000);

    const done = until(live.bridge.hub, 'done', stateOf('done'), SLOW);
    const screenIdle = screenTurns(live.tmux, live.agent.paneId, (s) => s.includes('Finished the long think.') && ompReady(s), SLOW);
    const d = await done;
    expect(d.at - (await screenIdle)).toBeLessThan(1000);

    live.api.script(chatToolCall('bash', { command: 'touch made-by-card' })[0], chatLongTurn(4_000, 'The command finished.'));
    const blocked = until(live.bridge.hub, 'blocked with a card', () => { const p = paneOf(); return p?.state === 'blocked' && p.card ? { pane: p, at: Date.now() } : undefined; }, SLOW);
    const screenDialog = screenTurns(live.tmux, live.agent.paneId, ompApproval, SLOW);
    await live.agent.submit('make the marker file');
    const b = await blocked;
    expect(b.at - (await screenDialog)).toBeLessThan(1000);
    expect(b.pane.dialog).toBe('permission');
    const card = b.pane.card!;
    expect(card).toMatchObject({ kind: 'permission', title: 'bash', body: ['Command: touch made-by-card'], answerable: true });
    expect(card.options.map((o) => o.label)).toEqual(['Approve', 'Deny']);

    const afterCard = until(live.bridge.hub, 'working after the answer', stateOf('working'), SLOW);
    const screenClosed = screenTurns(live.tmux, live.agent.paneId, (s) => !ompApproval(s) && ompWorking(s), SLOW);
    const answered = await call(live.bridge, live.id, 'answer', { signature: card.signature, option: 1, request_id: 'omp-answer-1' });
    expect(answered.outcome).toBe('answered');
    const a = await afterCard;
    expect(a.at - (await screenClosed)).toBeLessThan(1000);
    const result = await live.api.waitForRequest((r) => r.kind === 'main' && r.toolResults.length > 0, SLOW);
    expect(result.toolResults[0]?.text ?? '').not.toMatch(/denied|blocked/iu);
    await until(live.bridge.hub, 'done after the card', stateOf('done'), SLOW);
  });

  it('Deny from the card refuses the command', { timeout: 300_000 }, async () => {
    await idle();
    const before = live.api.requests.length;
    live.api.script(chatToolCall('bash', { command: 'rm -rf refused-dir' })[0], chatReply('Understood.'));
    await live.agent.submit('remove the folder');
    const card = await until(live.bridge.hub, 'the approval card', () => { const p = paneOf(); return p?.state === 'blocked' && p.card?.kind === 'permission' && p.card; }, SLOW);
    const r = await call(live.bridge, live.id, 'answer', { signature: card.signature, option: 2, request_id: 'omp-deny-1' });
    expect(r.outcome).toBe('answered');
    const back = await live.api.waitForRequest((q) => q.kind === 'main' && q.seq >= before && q.toolResults.length > 0, SLOW);
    expect(back.toolResults[0]?.text ?? '').toMatch(/denied|blocked|reject|not approved/iu);
    await idle();
  });

  sendProtocolTests(live, {
    prefix: 'omp',
    ready: ompReady,
    asks: ompApproval,
    reply: chatReply,
    longTurn: chatLongTurn,
    askingCall: () => chatToolCall('bash', { command: 'touch from-the-card' }),
    clear: async (agent) => { await agent.press('C-u', (s) => !s.includes('my own half-written thought')); },
    slowMs: SLOW,
  });
});
