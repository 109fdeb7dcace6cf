import { describe, expect, it } from 'vitest';
import {
  agentLongTurn,
  agentReply,
  agentShell,
  geminiApproval,
  geminiInputReady,
  geminiMissing,
  geminiWorking,
} from '@collie/testkit';
import { liveAgent, orExplain, screenTurns } from './agent-live';
import { geminiKind } from './live-rig';
import { sendProtocolTests } from './agent-sends';
import { until } from './harness';
import { call } from './send-helpers';

/** The real Gemini CLI 0.61 through the real bridge: states, the approval card, the send protocol. */
const missing = geminiMissing();
if (missing) console.log(`skipped: ${missing}`);
const SLOW = 60_000;

describe.skipIf(missing !== null)('the real Gemini CLI through the bridge', () => {
  const live = liveAgent(geminiKind(), SLOW);
  const { paneOf, stateOf } = live;
  const idleScreen = (s: string) => geminiInputReady(s) && !geminiWorking(s);

  it('idle → working → done, then blocked on an approval, answered from the card → working → done; each within 1 s of the screen', async () => {
    expect(paneOf()?.harness).toBe('gemini');
    // A long turn: working from the status row on, and all the while its reply streams.
    live.api.script(agentLongTurn(6_000, 'Reading the parser one module at a time before changing anything.'));
    const working = until(live.bridge.hub, 'working', stateOf('working'), 30_000);
    const screenWorking = screenTurns(live.tmux, live.agent.paneId, geminiWorking);
    await live.agent.submit('explain the parser');
    expect((await working).at - (await screenWorking)).toBeLessThan(1000);
    await live.agent.waitForScreen(/✦ Reading the parser/u, 20_000);
    expect(paneOf()?.state).toBe('working');

    const done = until(live.bridge.hub, 'done', stateOf('done'), 30_000);
    const screenDone = screenTurns(live.tmux, live.agent.paneId, (s) => s.includes('before changing anything.') && idleScreen(s));
    expect((await done).at - (await screenDone)).toBeLessThan(1000);

    // The approval: blocked with its card, answered through the bridge.
    live.api.script(...agentShell('touch made-by-card', { reason: 'Create the marker file', closingMs: 3_000 }));
    const blocked = until(live.bridge.hub, 'blocked', () => { const p = paneOf(); return p?.state === 'blocked' && p.card ? { pane: p, at: Date.now() } : undefined; }, 30_000);
    const screenBlocked = screenTurns(live.tmux, live.agent.paneId, geminiApproval);
    await live.agent.submit('make the marker file');
    const b = await orExplain(blocked, live.tmux, live.agent.paneId, live.api);
    expect(b.at - (await screenBlocked)).toBeLessThan(1000);
    expect(b.pane.dialog).toBe('permission');
    expect(b.pane.card).toMatchObject({ kind: 'permission', question: 'Allow execution of [Shell]?', title: 'Shell' });
    expect(b.pane.card?.body).toContain('touch made-by-card');
    expect(b.pane.card?.options.map((o) => o.label)[0]).toBe('Allow once');

    const afterAnswer = until(live.bridge.hub, 'working after the answer', stateOf('working'), 30_000);
    const r = await call(live.bridge, live.id, 'answer', { signature: b.pane.card!.signature, option: 1, request_id: 'gemini-answer-1' });
    expect(r.outcome).toBe('answered');
    await afterAnswer;
    const req = await live.api.waitForRequest((q) => q.kind === 'main' && q.toolOutputs.length > 0, 20_000);
    expect(req.toolOutputs.at(-1)).toMatch(/Output: \(empty\)/u);
    const doneAgain = until(live.bridge.hub, 'done after the answer', stateOf('done'), 30_000);
    const screenDoneAgain = screenTurns(live.tmux, live.agent.paneId, (s) => s.includes('The command finished.') && idleScreen(s));
    expect((await doneAgain).at - (await screenDoneAgain)).toBeLessThan(1000);
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
