import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pane } from '@collie/protocol';
import {
  bashPermission,
  claudeInputReady,
  claudeInputText,
  claudePermissionDialog,
  claudeWorking,
  longTurn,
  plainReply,
  type ClaudePane,
  type MessagesApi,
  type TmuxServer,
} from '@collie/testkit';
import { type TestBridge, until } from './harness';
import { liveClaude, type LiveClaude } from './live-rig';
import { call, finalReceipt } from './send-helpers';

describe('sending to the real Claude Code TUI', () => {
  let rig: LiveClaude;
  let tmux: TmuxServer, api: MessagesApi, claude: ClaudePane, bridge: TestBridge, id: string;
  const paneOf = (): Pane | undefined => bridge.hub.panes.get(id);
  const idle = () => rig.idle(30_000);

  beforeAll(async () => {
    rig = await liveClaude({ readyMs: 30_000 });
    ({ tmux, api, claude, bridge, id } = rig);
  }, 60_000);

  afterAll(() => rig?.[Symbol.asyncDispose]());

  it('idle: the text reaches the agent and the receipt says typed into the pane', async () => {
    api.script(plainReply('Got it.'));
    const r = await call(bridge, id, 'send', { text: 'hello from the phone', request_id: 'idle-1' });
    expect(r.outcome).toBe('typed into the pane');
    expect(r.final).toBe(true);
    const req = await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'hello from the phone');
    expect(req.prompt).toBe('hello from the phone');
    await claude.waitForScreen((s) => s.includes('Got it.') && claudeInputReady(s));
  });

  it('the same request id again types nothing and returns the same receipt', async () => {
    const before = api.requests.filter((q) => q.kind === 'main').length;
    const again = await call(bridge, id, 'send', { text: 'hello from the phone', request_id: 'idle-1' });
    expect(again.outcome).toBe('typed into the pane');
    await idle();
    expect(api.requests.filter((q) => q.kind === 'main').length).toBe(before);
  });

  it('during a long turn: held, then typed after the turn ends, as a new user message', async () => {
    api.script(longTurn(4000, 'Long turn over.'), plainReply('Second answer.'));
    await claude.submit('start a long turn');
    await until(bridge.hub, 'working', () => paneOf()?.state === 'working');
    const r = await call(bridge, id, 'send', { text: 'after the turn please', request_id: 'held-1' });
    expect(r.outcome).toBe('held: agent working');
    const done = await finalReceipt(bridge, 'held-1');
    expect(done.outcome).toBe('typed into the pane');
    const req = await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'after the turn please');
    // A new user message after the finished turn, not words merged into a running one.
    expect(req.userMessages.at(-1)).toBe('after the turn please');
    const turn = api.requests.find((q) => q.kind === 'main' && q.prompt === 'start a long turn')!;
    expect(req.at).toBeGreaterThan(turn.at + 3500);
    await idle();
  });

  it('with a draft in the box: not sent, the draft untouched byte for byte', async () => {
    await tmux.typeText(claude.paneId, 'my own half-written thought');
    await until(bridge.hub, 'the draft', () => paneOf()?.draft === 'my own half-written thought');
    const r = await call(bridge, id, 'send', { text: 'should not be typed', request_id: 'draft-1' });
    expect(r.outcome).toBe('not sent: draft present');
    expect(claudeInputText(await claude.capture())).toBe('my own half-written thought');
    for (let i = 0; i < 'my own half-written thought'.length; i++) await tmux.sendKeys(claude.paneId, 'BSpace');
    await idle();
  });

  it('with a permission dialog open: held, dialog untouched; a card answer runs it; then the held text is typed', async () => {
    api.script(bashPermission('touch from-the-card'), plainReply('After the dialog.'));
    await claude.submit('run the command');
    const blocked = await until(bridge.hub, 'the permission card', () => { const p = paneOf(); return p?.state === 'blocked' && p.card && p; });
    const r = await call(bridge, id, 'send', { text: 'queued behind the dialog', request_id: 'dialog-1' });
    expect(r.outcome).toBe('held: dialog open');
    await new Promise((res) => setTimeout(res, 500));
    // The dialog is untouched: still open, on its first option, and none of the text in it.
    const during = await claude.capture();
    expect(claudePermissionDialog(during)).toBe(true);
    expect(during).toMatch(/❯ 1\. Yes/);
    expect(during).not.toContain('queued behind the dialog');

    // A stale card (another signature) presses nothing.
    const stale = await call(bridge, id, 'answer', { signature: 'not-this-ask', option: 1, request_id: 'stale-1' });
    expect(stale.outcome).toBe('not sent: the ask changed');
    expect(claudePermissionDialog(await claude.capture())).toBe(true);

    const yes = await call(bridge, id, 'answer', { signature: blocked.card!.signature, option: 1, request_id: 'answer-1' });
    expect(yes.outcome).toBe('answered');
    await api.waitForRequest((q) => q.kind === 'main' && q.toolResults.some((t) => !t.isError));
    const held = await finalReceipt(bridge, 'dialog-1');
    expect(held.outcome).toBe('typed into the pane');
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'queued behind the dialog');
    await idle();
  });

  it('multi-line, 4,000 characters, CJK, emoji, RTL and control bytes arrive exactly (control bytes removed)', async () => {
    const texts: [string, string][] = [
      ['first line\nsecond line\nthird line', 'first line\nsecond line\nthird line'],
      ['x'.repeat(3990) + ' end.', 'x'.repeat(3990) + ' end.'],
      ['日本語のテキスト 😀🚀 שלום עולם مرحبا', '日本語のテキスト 😀🚀 שלום עולם مرحبا'],
      ['bell\x07 and esc\x1b[31m red\x1b[0m and nul\x00 done', 'bell and esc[31m red[0m and nul done'],
    ];
    for (const [i, [text, expected]] of texts.entries()) {
      api.script(plainReply(`Reply ${i}.`));
      const before = api.requests.at(-1)?.seq ?? -1;
      const r = await call(bridge, id, 'send', { text, request_id: `text-${i}` });
      expect(r.outcome, `text ${i}`).toBe('typed into the pane');
      // A long paste reaches the model wrapped in the agent's own pasted_content record.
      const unwrap = (m: string | undefined) => /^<pasted_content id="([^"]+)">\n([\s\S]*?)\n<\/pasted_content id="\1">$/.exec(m ?? '')?.[2] ?? m;
      const req = await api.waitForRequest((q) => q.kind === 'main' && q.prompt !== '' && q.seq > before, 20_000);
      expect(unwrap(req.userMessages.at(-1))).toBe(expected);
      await claude.waitForScreen((s) => s.includes(`Reply ${i}.`) && claudeInputReady(s) && !claudeWorking(s));
      await idle();
    }
  });

  it('two sends to one pane are typed one after the other, never into each other', async () => {
    api.script(plainReply('One.'), plainReply('Two.'));
    const [a, b] = await Promise.all([
      call(bridge, id, 'send', { text: 'first of two', request_id: 'pair-1' }),
      call(bridge, id, 'send', { text: 'second of two', request_id: 'pair-2' }),
    ]);
    expect(a.outcome).toBe('typed into the pane');
    expect(['queued', 'held: agent working', 'typed into the pane']).toContain(b.outcome);
    expect((await finalReceipt(bridge, 'pair-2')).outcome).toBe('typed into the pane');
    const first = await api.waitForRequest((q) => q.kind === 'main' && q.userMessages.at(-1) === 'first of two');
    const second = await api.waitForRequest((q) => q.kind === 'main' && q.userMessages.at(-1) === 'second of two');
    expect(second.seq).toBeGreaterThan(first.seq);
    await idle();
  });
});
