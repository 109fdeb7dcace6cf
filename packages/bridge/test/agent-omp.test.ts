import { describe, expect, it } from 'vitest';
import {
  chatLongTurn,
  chatReply,
  chatToolCall,
  ompApproval,
  ompCommand,
  ompReady,
  ompWorking,
} from '@collie/testkit';
import { liveAgent } from './agent-live';
import { lifecycleTest } from './agent-lifecycle';
import { ompKind } from './live-rig';
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
  const live = liveAgent(ompKind(), SLOW);
  const { paneOf, idle } = live;

  lifecycleTest(live, {
    harness: 'omp',
    prefix: 'omp',
    working: ompWorking,
    ready: ompReady,
    asks: ompApproval,
    askingTurns: () => [chatToolCall('bash', { command: 'touch made-by-card' })[0]!, chatLongTurn(4_000, 'The command finished.')],
    card: (card) => {
      expect(card).toMatchObject({ kind: 'permission', title: 'bash', body: ['Command: touch made-by-card'], answerable: true });
      expect(card.options.map((o) => o.label)).toEqual(['Approve', 'Deny']);
    },
    afterAnswer: 'working',
    closed: (s) => !ompApproval(s) && ompWorking(s),
    ran: (text) => expect(text ?? '').not.toMatch(/denied|blocked/iu),
    seen: false,
    slowMs: SLOW,
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
