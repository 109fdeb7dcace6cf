import { describe, expect } from 'vitest';
import {
  chatLongTurn,
  chatReply,
  chatToolCall,
  piPermission,
  piReady,
  piWorking,
} from '@collie/testkit';
import { liveAgent } from './agent-live';
import { lifecycleTest } from './agent-lifecycle';
import { piKind } from './live-rig';
import { sendProtocolTests } from './agent-sends';

/**
 * The real pi 0.73 TUI through the real bridge, with pi's shipped permission-gate example
 * asking before `rm -rf`. Waits are generous (the machine is shared); the 1 s bounds are
 * between the screen and the bridge.
 */
const SLOW = 240_000;


describe('the real pi TUI through the bridge', () => {
  const live = liveAgent(piKind(), SLOW);

  lifecycleTest(live, {
    harness: 'pi',
    prefix: 'pi',
    working: piWorking,
    ready: piReady,
    asks: piPermission,
    // The turn after the answer streams slowly, so its working state is on screen long enough to see.
    askingTurns: () => [chatToolCall('bash', { command: 'rm -rf made-by-card' })[0]!, chatLongTurn(4_000, 'The command finished.')],
    card: (card) => {
      expect(card).toMatchObject({ kind: 'permission', title: 'Dangerous command', question: 'Allow?', answerable: true });
      expect(card.body).toContain('rm -rf made-by-card');
      expect(card.options.map((o) => o.label)).toEqual(['Yes', 'No']);
    },
    afterAnswer: 'working',
    closed: (s) => !piPermission(s) && piWorking(s),
    ran: (text) => expect(text).not.toMatch(/Blocked by user/i),
    seen: true,
    slowMs: SLOW,
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
