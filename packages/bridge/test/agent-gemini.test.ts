import { describe, expect } from 'vitest';
import {
  agentLongTurn,
  agentReply,
  agentShell,
  geminiApproval,
  geminiInputReady,
  geminiMissing,
  geminiWorking,
} from '@collie/testkit';
import { liveAgent } from './agent-live';
import { approvalLifecycleTest } from './agent-lifecycle';
import { geminiKind } from './live-rig';
import { sendProtocolTests } from './agent-sends';

/** The real Gemini CLI 0.61 through the real bridge: states, the approval card, the send protocol. */
const missing = geminiMissing();
if (missing) console.log(`skipped: ${missing}`);
const SLOW = 60_000;

describe.skipIf(missing !== null)('the real Gemini CLI through the bridge', () => {
  const live = liveAgent(geminiKind(), SLOW);
  const idleScreen = (s: string) => geminiInputReady(s) && !geminiWorking(s);

  approvalLifecycleTest(live, {
    harness: 'gemini',
    prefix: 'gemini',
    working: geminiWorking,
    streams: /✦ Reading the parser/u,
    doneScreen: (s) => s.includes('before changing anything.') && idleScreen(s),
    asks: geminiApproval,
    card: (card) => {
      expect(card).toMatchObject({ kind: 'permission', question: 'Allow execution of [Shell]?', title: 'Shell' });
      expect(card.body).toContain('touch made-by-card');
      expect(card.options.map((o) => o.label)[0]).toBe('Allow once');
    },
    output: /Output: \(empty\)/u,
    doneAgainScreen: (s) => s.includes('The command finished.') && idleScreen(s),
    explain: true,
  });

  sendProtocolTests(live, {
    prefix: 'gemini',
    ready: idleScreen,
    asks: geminiApproval,
    dialogShows: /● 1\. Allow once/u,
    reply: agentReply,
    longTurn: agentLongTurn,
    // Another command than the first test's `touch`: once in a while under load Gemini CLI runs a
    // second `touch` of the session without asking, which is its business, not the bridge's.
    askingCall: () => agentShell('mkdir from-the-card', { reason: 'Create another marker' }),
    // Ctrl+C clears a non-empty input (a second one would quit).
    clear: (agent, tmux) => tmux.sendKeys(agent.paneId, 'C-c'),
    slowMs: SLOW,
  });
});
