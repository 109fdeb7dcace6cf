import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pane } from '@collie/protocol';
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
  startTmux,
  tempDir,
  type AgentPane,
  type ChatApi,
  type TempDir,
  type TmuxServer,
} from '@collie/testkit';
import { screenTurns } from './agent-live';
import { bridgeFor, type TestBridge, until } from './harness';
import { call, finalReceipt } from './send-helpers';

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
  let tmux: TmuxServer;
  let api: ChatApi;
  let state: TempDir;
  let omp: AgentPane;
  let bridge: TestBridge;
  let id: string;
  const paneOf = (): Pane | undefined => bridge.hub.panes.get(id);
  const stateOf = (want: Pane['state']) => () => {
    const p = paneOf();
    return p?.state === want ? { pane: p, at: Date.now() } : undefined;
  };
  const idle = () =>
    until(bridge.hub, 'the pane idle and empty', () => { const p = paneOf(); return p && (p.state === 'idle' || p.state === 'done') && p.draft === null && p.dialog === null && p; }, SLOW);

  beforeAll(async () => {
    tmux = await startTmux();
    api = await startChatApi();
    state = await tempDir('collie-state');
    omp = await startOmp(tmux, api);
    bridge = await bridgeFor(tmux.tmpDir, state.path);
    id = `${tmux.name}:${omp.paneId}`;
    await idle();
  }, 300_000);

  afterAll(async () => {
    await bridge?.stop();
    await omp?.kill();
    await api?.close();
    await tmux?.kill();
    await state?.remove();
  });

  it('idle → working → done → blocked → answered from the card → working → done, each within 1 s of the screen', { timeout: 900_000 }, async () => {
    expect(paneOf()?.harness).toBe('omp');

    api.script(chatLongTurn(8_000, 'Finished the long think.'));
    const working = until(bridge.hub, 'working', stateOf('working'), SLOW);
    const screenWorking = screenTurns(tmux, omp.paneId, ompWorking, SLOW);
    await omp.submit('think for a while');
    const w = await working;
    expect(w.at - (await screenWorking)).toBeLessThan(1000);

    const done = until(bridge.hub, 'done', stateOf('done'), SLOW);
    const screenIdle = screenTurns(tmux, omp.paneId, (s) => s.includes('Finished the long think.') && ompReady(s), SLOW);
    const d = await done;
    expect(d.at - (await screenIdle)).toBeLessThan(1000);

    api.script(chatToolCall('bash', { command: 'touch made-by-card' })[0], chatLongTurn(4_000, 'The command finished.'));
    const blocked = until(bridge.hub, 'blocked with a card', () => { const p = paneOf(); return p?.state === 'blocked' && p.card ? { pane: p, at: Date.now() } : undefined; }, SLOW);
    const screenDialog = screenTurns(tmux, omp.paneId, ompApproval, SLOW);
    await omp.submit('make the marker file');
    const b = await blocked;
    expect(b.at - (await screenDialog)).toBeLessThan(1000);
    expect(b.pane.dialog).toBe('permission');
    const card = b.pane.card!;
    expect(card).toMatchObject({ kind: 'permission', title: 'bash', body: ['Command: touch made-by-card'], answerable: true });
    expect(card.options.map((o) => o.label)).toEqual(['Approve', 'Deny']);

    const afterCard = until(bridge.hub, 'working after the answer', stateOf('working'), SLOW);
    const screenClosed = screenTurns(tmux, omp.paneId, (s) => !ompApproval(s) && ompWorking(s), SLOW);
    const answered = await call(bridge, id, 'answer', { signature: card.signature, option: 1, request_id: 'omp-answer-1' });
    expect(answered.outcome).toBe('answered');
    const a = await afterCard;
    expect(a.at - (await screenClosed)).toBeLessThan(1000);
    const result = await api.waitForRequest((r) => r.kind === 'main' && r.toolResults.length > 0, SLOW);
    expect(result.toolResults[0]?.text ?? '').not.toMatch(/denied|blocked/iu);
    await until(bridge.hub, 'done after the card', stateOf('done'), SLOW);
  });

  it('Deny from the card refuses the command', { timeout: 300_000 }, async () => {
    await idle();
    const before = api.requests.length;
    api.script(chatToolCall('bash', { command: 'rm -rf refused-dir' })[0], chatReply('Understood.'));
    await omp.submit('remove the folder');
    const card = await until(bridge.hub, 'the approval card', () => { const p = paneOf(); return p?.state === 'blocked' && p.card?.kind === 'permission' && p.card; }, SLOW);
    const r = await call(bridge, id, 'answer', { signature: card.signature, option: 2, request_id: 'omp-deny-1' });
    expect(r.outcome).toBe('answered');
    const back = await api.waitForRequest((q) => q.kind === 'main' && q.seq >= before && q.toolResults.length > 0, SLOW);
    expect(back.toolResults[0]?.text ?? '').toMatch(/denied|blocked|reject|not approved/iu);
    await idle();
  });

  it('reads a draft, and a send leaves it alone', { timeout: 300_000 }, async () => {
    await idle();
    await tmux.typeText(omp.paneId, 'my own half-written thought');
    await until(bridge.hub, 'the draft', () => paneOf()?.draft === 'my own half-written thought', SLOW);
    const r = await call(bridge, id, 'send', { text: 'should not be typed', request_id: 'omp-draft-1' });
    expect(r.outcome).toBe('not sent: draft present');
    expect(await omp.capture()).toContain('my own half-written thought');
    await omp.press('C-u', (s) => !s.includes('my own half-written thought'));
    await idle();
  });

  it('idle: the text is typed and submitted once', { timeout: 300_000 }, async () => {
    api.script(chatReply('Got it.'));
    const before = api.requests.length;
    const r = await call(bridge, id, 'send', { text: 'hello from the phone', request_id: 'omp-idle-1' });
    expect(r.outcome).toBe('typed into the pane');
    await api.waitForRequest((q) => q.kind === 'main' && q.seq >= before && q.prompt === 'hello from the phone', SLOW);
    await omp.waitForScreen((s) => s.includes('Got it.') && ompReady(s), SLOW);
    await idle();
    expect(api.requests.filter((q) => q.kind === 'main' && q.prompt === 'hello from the phone')).toHaveLength(1);
  });

  it('during a turn: held, then typed after it', { timeout: 600_000 }, async () => {
    api.script(chatLongTurn(6_000, 'Long turn over.'), chatReply('Second answer.'));
    await omp.submit('start a long turn');
    await until(bridge.hub, 'working', () => paneOf()?.state === 'working', SLOW);
    const r = await call(bridge, id, 'send', { text: 'after the turn please', request_id: 'omp-held-1' });
    expect(r.outcome).toBe('held: agent working');
    expect((await finalReceipt(bridge, 'omp-held-1', SLOW)).outcome).toBe('typed into the pane');
    const req = await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'after the turn please', SLOW);
    const turn = api.requests.find((q) => q.kind === 'main' && q.prompt === 'start a long turn')!;
    expect(req.at).toBeGreaterThan(turn.at + 5_000);
    await idle();
  });

  it('with an approval open: held, the card answered, then the held text typed', { timeout: 600_000 }, async () => {
    api.script(...chatToolCall('bash', { command: 'touch from-the-card' }), chatReply('After the dialog.'));
    await omp.submit('run the command');
    const blocked = await until(bridge.hub, 'the approval card', () => { const p = paneOf(); return p?.state === 'blocked' && p.card && p; }, SLOW);
    const r = await call(bridge, id, 'send', { text: 'queued behind the dialog', request_id: 'omp-dialog-1' });
    expect(r.outcome).toBe('held: dialog open');
    expect(await omp.capture()).not.toContain('queued behind the dialog');
    const yes = await call(bridge, id, 'answer', { signature: blocked.card!.signature, option: 1, request_id: 'omp-answer-2' });
    expect(yes.outcome).toBe('answered');
    const result = await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'run the command' && q.toolResults.length > 0, SLOW);
    expect((await finalReceipt(bridge, 'omp-dialog-1', SLOW)).outcome).toBe('typed into the pane');
    const held = await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'queued behind the dialog', SLOW);
    expect(held.seq).toBeGreaterThan(result.seq);
    await idle();
  });
});
