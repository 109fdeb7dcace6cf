import { describe, expect, it } from 'vitest';
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
import { liveAgent, screenTurns } from './agent-live';
import { codexKind } from './live-rig';
import { sendProtocolTests } from './agent-sends';
import { until } from './harness';
import { call } from './send-helpers';

/** The real Codex 0.171 TUI through the real bridge: states, the approval card, the send protocol. */
const missing = codexMissing();
if (missing) console.log(`skipped: ${missing}`);
const SLOW = 60_000;

describe.skipIf(missing !== null)('the real Codex TUI through the bridge', () => {
  const live = liveAgent(codexKind(), SLOW);
  const { paneOf, stateOf } = live;
  const idleScreen = (s: string) => codexInputReady(s) && !codexWorking(s);

  it('idle → working → done, then blocked on an approval, answered from the card → working → done; each within 1 s of the screen', async () => {
    expect(paneOf()?.harness).toBe('codex');
    // A long turn: working from the status row on, and all the while its reply streams.
    live.api.script(agentLongTurn(6_000, 'Reading the parser one module at a time before changing anything.'));
    const working = until(live.bridge.hub, 'working', stateOf('working'), 30_000);
    const screenWorking = screenTurns(live.tmux, live.agent.paneId, codexWorking);
    await live.agent.submit('explain the parser');
    expect((await working).at - (await screenWorking)).toBeLessThan(1000);
    await live.agent.waitForScreen(/• Reading the parser/u, 20_000);
    expect(paneOf()?.state).toBe('working');

    const done = until(live.bridge.hub, 'done', stateOf('done'), 30_000);
    const screenDone = screenTurns(live.tmux, live.agent.paneId, (s) => /Worked for/u.test(s) && idleScreen(s));
    expect((await done).at - (await screenDone)).toBeLessThan(1000);

    // The approval: blocked with its card, answered through the bridge.
    live.api.script(...agentShell('touch made-by-card', { reason: 'Create the marker file', closingMs: 3_000 }));
    const blocked = until(live.bridge.hub, 'blocked', () => { const p = paneOf(); return p?.state === 'blocked' && p.card ? { pane: p, at: Date.now() } : undefined; }, 30_000);
    const screenBlocked = screenTurns(live.tmux, live.agent.paneId, codexApproval);
    await live.agent.submit('make the marker file');
    const b = await blocked;
    expect(b.at - (await screenBlocked)).toBeLessThan(1000);
    expect(b.pane.dialog).toBe('permission');
    expect(b.pane.card).toMatchObject({ kind: 'permission', question: 'Would you like to run the following command?' });
    expect(b.pane.card?.body).toContain('$ touch made-by-card');
    expect(b.pane.card?.options.map((o) => o.label)[0]).toBe('Yes, proceed');
    // The receipt names the command, not the card's `Environment: local` field.
    expect(answerWords(b.pane.card!, b.pane.card!.options[0]!)).toBe('Allowed once: touch made-by-card');
    expect(answerWords(b.pane.card!, b.pane.card!.options.at(-1)!)).toBe('Refused: touch made-by-card');

    const afterAnswer = until(live.bridge.hub, 'working after the answer', stateOf('working'), 30_000);
    const r = await call(live.bridge, live.id, 'answer', { signature: b.pane.card!.signature, option: 1, request_id: 'codex-answer-1' });
    expect(r.outcome).toBe('answered');
    await afterAnswer;
    const req = await live.api.waitForRequest((q) => q.kind === 'main' && q.toolOutputs.length > 0, 20_000);
    expect(req.toolOutputs.at(-1)).toMatch(/exited with code 0/u);
    const doneAgain = until(live.bridge.hub, 'done after the answer', stateOf('done'), 30_000);
    // The turn ends with its `Worked for` line, a moment after the reply's last word.
    const screenDoneAgain = screenTurns(live.tmux, live.agent.paneId, (s) => /The command finished\.\s*\n\s*Worked for/u.test(s) && idleScreen(s));
    expect((await doneAgain).at - (await screenDoneAgain)).toBeLessThan(1000);
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
