import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pane } from '@collie/protocol';
import {
  agentLongTurn,
  agentReply,
  agentShell,
  geminiApproval,
  geminiMissing,
  geminiInputReady,
  geminiInputText,
  geminiWorking,
  startGemini,
  startGeminiApi,
  startTmux,
  tempDir,
  type AgentApi,
  type AgentPane,
  type TempDir,
  type TmuxServer,
} from '@collie/testkit';
import { bridgeFor, type TestBridge, until } from './harness';
import { call, finalReceipt } from './send-helpers';
import { orExplain, screenTurns } from './agent-live';

/** The real Gemini CLI 0.61 through the real bridge: states, the approval card, the send protocol. */
const missing = geminiMissing();
if (missing) console.log(`skipped: ${missing}`);

describe.skipIf(missing !== null)('the real Gemini CLI through the bridge', () => {
  let tmux: TmuxServer;
  let api: AgentApi;
  let state: TempDir;
  let gemini: AgentPane;
  let bridge: TestBridge;
  let id: string;
  const paneOf = (): Pane | undefined => bridge.hub.panes.get(id);
  const stateOf = (want: Pane['state']) => () => {
    const p = paneOf();
    return p?.state === want ? { pane: p, at: Date.now() } : undefined;
  };
  const settled = () =>
    until(bridge.hub, 'the pane idle', () => { const p = paneOf(); return p && (p.state === 'idle' || p.state === 'done') && p.draft === null && p.dialog === null && p; }, 30_000);
  const idleScreen = (s: string) => geminiInputReady(s) && !geminiWorking(s);
  const mains = () => api.requests.filter((r) => r.kind === 'main');

  beforeAll(async () => {
    tmux = await startTmux();
    api = await startGeminiApi();
    state = await tempDir('collie-state');
    gemini = await startGemini(tmux, api);
    bridge = await bridgeFor(tmux.tmpDir, state.path);
    id = `${tmux.name}:${gemini.paneId}`;
    const first = await settled();
    expect(first.harness).toBe('gemini');
  }, 120_000);

  afterAll(async () => {
    await bridge?.stop();
    await gemini?.kill();
    await api?.close();
    await tmux?.kill();
    await state?.remove();
  });

  it('idle → working → done, then blocked on an approval, answered from the card → working → done; each within 1 s of the screen', async () => {
    // A long turn: working from the status row on, and all the while its reply streams.
    api.script(agentLongTurn(6_000, 'Reading the parser one module at a time before changing anything.'));
    const working = until(bridge.hub, 'working', stateOf('working'), 30_000);
    const screenWorking = screenTurns(tmux, gemini.paneId, geminiWorking);
    await gemini.submit('explain the parser');
    expect((await working).at - (await screenWorking)).toBeLessThan(1000);
    await gemini.waitForScreen(/✦ Reading the parser/u, 20_000);
    expect(paneOf()?.state).toBe('working');

    const done = until(bridge.hub, 'done', stateOf('done'), 30_000);
    const screenDone = screenTurns(tmux, gemini.paneId, (s) => s.includes('before changing anything.') && idleScreen(s));
    expect((await done).at - (await screenDone)).toBeLessThan(1000);

    // The approval: blocked with its card, answered through the bridge.
    api.script(...agentShell('touch made-by-card', { reason: 'Create the marker file', closingMs: 3_000 }));
    const blocked = until(bridge.hub, 'blocked', () => { const p = paneOf(); return p?.state === 'blocked' && p.card ? { pane: p, at: Date.now() } : undefined; }, 30_000);
    const screenBlocked = screenTurns(tmux, gemini.paneId, geminiApproval);
    await gemini.submit('make the marker file');
    const b = await orExplain(blocked, tmux, gemini.paneId, api);
    expect(b.at - (await screenBlocked)).toBeLessThan(1000);
    expect(b.pane.dialog).toBe('permission');
    expect(b.pane.card).toMatchObject({ kind: 'permission', question: 'Allow execution of [Shell]?', title: 'Shell' });
    expect(b.pane.card?.body).toContain('touch made-by-card');
    expect(b.pane.card?.options.map((o) => o.label)[0]).toBe('Allow once');

    const afterAnswer = until(bridge.hub, 'working after the answer', stateOf('working'), 30_000);
    const r = await call(bridge, id, 'answer', { signature: b.pane.card!.signature, option: 1, request_id: 'gemini-answer-1' });
    expect(r.outcome).toBe('answered');
    await afterAnswer;
    const req = await api.waitForRequest((q) => q.kind === 'main' && q.toolOutputs.length > 0, 20_000);
    expect(req.toolOutputs.at(-1)).toMatch(/Output: \(empty\)/u);
    const doneAgain = until(bridge.hub, 'done after the answer', stateOf('done'), 30_000);
    const screenDoneAgain = screenTurns(tmux, gemini.paneId, (s) => s.includes('The command finished.') && idleScreen(s));
    expect((await doneAgain).at - (await screenDoneAgain)).toBeLessThan(1000);
  });

  it('reads a draft, and a send leaves it alone', async () => {
    await settled();
    await tmux.typeText(gemini.paneId, 'my own half-written thought');
    await until(bridge.hub, 'the draft', () => paneOf()?.draft === 'my own half-written thought', 15_000);
    const before = mains().length;
    const r = await call(bridge, id, 'send', { text: 'should not be typed', request_id: 'gemini-draft-1' });
    expect(r.outcome).toBe('not sent: draft present');
    expect(geminiInputText(await gemini.capture())).toBe('my own half-written thought');
    // Ctrl+C clears a non-empty input (a second one would quit).
    await tmux.sendKeys(gemini.paneId, 'C-c');
    await settled();
    expect(mains().length).toBe(before);
  });

  it('an idle send is typed and submitted once', async () => {
    await settled();
    api.script(agentReply('Got it.'));
    const before = mains().length;
    const r = await call(bridge, id, 'send', { text: 'hello from the phone', request_id: 'gemini-idle-1' });
    expect(r.outcome).toBe('typed into the pane');
    const req = await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'hello from the phone', 20_000);
    expect(req.userMessages.filter((m) => m === 'hello from the phone')).toHaveLength(1);
    await gemini.waitForScreen((s) => s.includes('Got it.') && idleScreen(s), 20_000);
    await settled();
    expect(mains().length).toBe(before + 1);
  });

  it('held while a turn runs, typed after it as a new message', async () => {
    await settled();
    api.script(agentLongTurn(5_000, 'The long turn is over now.'), agentReply('Second answer.'));
    await gemini.submit('start a long turn');
    await until(bridge.hub, 'working', () => paneOf()?.state === 'working', 20_000);
    const r = await call(bridge, id, 'send', { text: 'after the turn please', request_id: 'gemini-held-1' });
    expect(r.outcome).toBe('held: agent working');
    expect((await finalReceipt(bridge, 'gemini-held-1')).outcome).toBe('typed into the pane');
    const req = await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'after the turn please', 20_000);
    const turn = api.requests.find((q) => q.kind === 'main' && q.prompt === 'start a long turn')!;
    expect(req.at).toBeGreaterThan(turn.at + 4_500);
    // A new user message after the finished turn: the turn's reply sits between the two.
    expect(req.userMessages.slice(-2)).toEqual(['start a long turn', 'after the turn please']);
    await gemini.waitForScreen((s) => s.includes('Second answer.') && idleScreen(s), 20_000);
    await settled();
  });

  it('held while an approval is open; the card answer runs it; then the held text is typed', async () => {
    await settled();
    // Another command than the first test's `touch`: once in a while under load Gemini CLI runs a
    // second `touch` of the session without asking, which is its business, not the bridge's.
    api.script(...agentShell('mkdir from-the-card', { reason: 'Create another marker' }), agentReply('After the approval.'));
    await gemini.submit('run the command');
    const blocked = await orExplain(until(bridge.hub, 'the approval card', () => { const p = paneOf(); return p?.state === 'blocked' && p.card && p; }, 30_000), tmux, gemini.paneId, api);
    const r = await call(bridge, id, 'send', { text: 'queued behind the approval', request_id: 'gemini-dialog-1' });
    expect(r.outcome).toBe('held: dialog open');
    const during = await gemini.capture();
    expect(geminiApproval(during)).toBe(true);
    expect(during).toMatch(/● 1\. Allow once/u);
    expect(during).not.toContain('queued behind the approval');

    const stale = await call(bridge, id, 'answer', { signature: 'not-this-ask', option: 1, request_id: 'gemini-stale-1' });
    expect(stale.outcome).toBe('not sent: the ask changed');
    const yes = await call(bridge, id, 'answer', { signature: blocked.card!.signature, option: 1, request_id: 'gemini-answer-2' });
    expect(yes.outcome).toBe('answered');
    const result = await api.waitForRequest((q) => q.kind === 'main' && q.toolOutputs.length > 0 && q.prompt === 'run the command', 20_000);
    expect((await finalReceipt(bridge, 'gemini-dialog-1')).outcome).toBe('typed into the pane');
    const held = await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'queued behind the approval', 20_000);
    expect(held.seq).toBeGreaterThan(result.seq);
    await gemini.waitForScreen((s) => s.includes('After the approval.') && idleScreen(s), 20_000);
    await settled();
  });
});
