import { describe, expect } from 'vitest';
import { answerWords } from '@collie/protocol';
import {
  agentLongTurn,
  agentReply,
  agentShell,
  codexApproval,
  codexInputReady,
  codexMissing,
  codexWorking,
} from '@collie/testkit';
import { liveAgent } from './agent-live';
import { approvalLifecycleTest } from './agent-lifecycle';
import { codexKind } from './live-rig';
import { sendProtocolTests } from './agent-sends';

/** The real Codex 0.171 TUI through the real bridge: states, the approval card, the send protocol. */
const missing = codexMissing();
if (missing) console.log(`skipped: ${missing}`);
const SLOW = 60_000;

describe.skipIf(missing !== null)('the real Codex TUI through the bridge', () => {
  const live = liveAgent(codexKind(), SLOW);
  const idleScreen = (s: string) => codexInputReady(s) && !codexWorking(s);

  approvalLifecycleTest(live, {
    harness: 'codex',
    prefix: 'codex',
    working: codexWorking,
    streams: /• Reading the parser/u,
    doneScreen: (s) => /Worked for/u.test(s) && idleScreen(s),
    asks: codexApproval,
    card: (card) => {
      expect(card).toMatchObject({ kind: 'permission', question: 'Would you like to run the following command?' });
      expect(card.body).toContain('$ touch made-by-card');
      expect(card.options.map((o) => o.label)[0]).toBe('Yes, proceed');
      // The receipt names the command, not the card's `Environment: local` field.
      expect(answerWords(card, card.options[0]!)).toBe('Allowed once: touch made-by-card');
      expect(answerWords(card, card.options.at(-1)!)).toBe('Refused: touch made-by-card');
    },
    output: /exited with code 0/u,
    // The turn ends with its `Worked for` line, a moment after the reply's last word.
    doneAgainScreen: (s) => /The command finished\.\s*\n\s*Worked for/u.test(s) && idleScreen(s),
  });

  sendProtocolTests(live, {
    prefix: 'codex',
    ready: idleScreen,
    asks: codexApproval,
    dialogShows: /› 1\. Yes, proceed/u,
    reply: agentReply,
    longTurn: agentLongTurn,
    askingCall: () => agentShell('touch from-the-card', { reason: 'Create another marker' }),
    slowMs: SLOW,
  });
});
