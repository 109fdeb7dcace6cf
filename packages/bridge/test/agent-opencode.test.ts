import { describe, expect } from 'vitest';
import {
  chatLongTurn,
  chatReply,
  chatToolCall,
  opencodePermission,
  opencodeReady,
  opencodeWorking,
} from '@collie/testkit';
import { liveAgent } from './agent-live';
import { lifecycleTest } from './agent-lifecycle';
import { opencodeKind } from './live-rig';
import { sendProtocolTests } from './agent-sends';

/**
 * The real OpenCode 1.18 TUI through the real bridge. A fresh OpenCode takes 5 s to start on
 * an idle machine and was seen taking 100 s on this shared one, and its first turn another
 * minute, so every wait is generous; the 1 s bounds are between the screen and the bridge.
 */
const SLOW = 240_000;


describe('the real OpenCode TUI through the bridge', () => {
  const live = liveAgent(opencodeKind(), SLOW);

  lifecycleTest(live, {
    harness: 'opencode',
    prefix: 'oc',
    working: opencodeWorking,
    ready: opencodeReady,
    asks: opencodePermission,
    askingTurns: () => chatToolCall('bash', { command: 'touch made-by-card', description: 'Create a marker file' }),
    card: (card) => {
      expect(card).toMatchObject({ kind: 'permission', title: 'Shell command', question: 'Permission required', answerable: true });
      expect(card.body).toContain('$ touch made-by-card');
      expect(card.options.map((o) => o.label)).toEqual(['Allow once', 'Allow always', 'Reject']);
    },
    afterAnswer: 'unblocked',
    closed: (s) => !opencodePermission(s),
    ran: (text) => expect(text).not.toMatch(/rejected|denied/i),
    seen: true,
    slowMs: SLOW,
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
