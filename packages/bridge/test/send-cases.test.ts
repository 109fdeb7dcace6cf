import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, OUTCOME } from '@collie/protocol';
import { claudeInputText, plainReply, type ClaudePane, type MessagesApi, type TmuxServer } from '@collie/testkit';
import { boxForm } from '../src/send/box-match';
import { ReceiptStore } from '../src/send/receipt-store';
import type { TestBridge } from './harness';
import { liveClaude, type LiveClaude } from './live-rig';
import { call, finalReceipt } from './send-helpers';

/** Issue 15, faults 3, 4 and 6 and the agent's own mode characters, on the real Claude Code TUI. */
describe('sends the bridge refuses, reused request ids, `!` and `/`, and the box actions', () => {
  let rig: LiveClaude;
  let tmux: TmuxServer, api: MessagesApi, claude: ClaudePane, bridge: TestBridge, id: string;
  let otherId: string;

  const raw = (path: string, body: unknown) =>
    fetch(`${bridge.url}/api/panes/${encodeURIComponent(id)}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: JSON.stringify(body) });
  const idle = () => rig.idle(30_000);
  const left = (requestId: string, text: string, store: ReceiptStore, paneId: string) =>
    store.put({
      receipt: { requestId, paneId, kind: 'text', summary: text, state: 'not_submitted', outcome: OUTCOME.notSubmitted, final: true, createdAt: 1, updatedAt: 1, left: text },
      leftHash: store.fingerprint('box', boxForm(text)),
    });

  beforeAll(async () => {
    rig = await liveClaude({
      api: { fallback: plainReply('Fine.') },
      before: async ({ tmux, state, id }) => {
        const other = await tmux.newSession('plain', { cmd: 'cat' });
        otherId = `${tmux.name}:${other}`;
        // Two sends that left text in the box, as a failed check leaves them (receipts of an earlier run).
        const store = await ReceiptStore.open(state.path);
        await left('left-send', 'leftover words to send', store, id);
        await left('left-clear', 'leftover words to clear', store, id);
        await store.close();
      },
      readyMs: 30_000,
    });
    ({ tmux, api, claude, bridge, id } = rig);
  }, 60_000);

  afterAll(() => rig?.[Symbol.asyncDispose]());

  it('empty once cleaned, or only white space: 400 empty_text, nothing typed, no receipt', async () => {
    for (const [text, i] of [['\u001b\u0003', 0], ['\u0000', 1], ['  \n \t  ', 2], ['\u0007\n', 3]] as const) {
      const res = await raw('send', { text, request_id: `empty-${i}` });
      expect(res.status).toBe(400);
      expect(ErrorBody.parse(await res.json()).error.code).toBe('empty_text');
      expect([...bridge.hub.sends.values()].flat().some((r) => r.requestId === `empty-${i}`)).toBe(false);
    }
    expect(claudeInputText(await claude.capture())).toBe('');
  });

  it('a reused request id: the same request gets its receipt (200); another text, pane or route gets 409 request_id_reused with the original receipt', async () => {
    const first = await call(bridge, id, 'send', { text: 'the first request', request_id: 'dup-1' });
    expect(first.outcome).toBe('typed into the pane');
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'the first request');
    await idle();
    expect((await call(bridge, id, 'send', { text: 'the first request', request_id: 'dup-1' })).updatedAt).toBe(first.updatedAt);
    const reused = [
      await raw('send', { text: 'another text', request_id: 'dup-1' }),
      await raw('keys', { keys: ['Enter'], request_id: 'dup-1' }),
      await fetch(`${bridge.url}/api/panes/${encodeURIComponent(otherId)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: JSON.stringify({ text: 'the first request', request_id: 'dup-1' }) }),
    ];
    for (const res of reused) {
      expect(res.status).toBe(409);
      const body = ErrorBody.parse(await res.json());
      expect(body.error.code).toBe('request_id_reused');
      expect(body.receipt).toEqual(first);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(api.requests.filter((q) => q.kind === 'main' && q.prompt === 'another text')).toHaveLength(0);
    expect(claudeInputText(await claude.capture())).toBe('');
  });

  it('`!cmd` runs in the shell as at the keyboard, and the receipt says so; the pane is not left in shell mode', async () => {
    const first = await call(bridge, id, 'send', { text: '!echo collie-bang', request_id: 'bang-1' });
    const r = first.final ? first : await finalReceipt(bridge, 'bang-1');
    expect(r.state).toBe('typed');
    expect(r.outcome).toBe('typed into the pane: run as a shell command (a leading ! is shell mode)');
    await api.waitForRequest((q) => q.kind === 'main' && q.userMessages.some((m) => m.includes('<bash-input>echo collie-bang</bash-input>')));
    await claude.waitForScreen((s) => claudeInputText(s) === '' && /^❯/m.test(s));
    await idle();
  });

  it('`/help` runs the command as at the keyboard, and the receipt says it was not a message', async () => {
    const before = api.requests.length;
    // Held first when the engine has not yet seen the end of the `!` command's turn (under load).
    const first = await call(bridge, id, 'send', { text: '/help', request_id: 'slash-1' });
    const r = first.final ? first : await finalReceipt(bridge, 'slash-1');
    expect(r.state).toBe('typed');
    expect(r.outcome).toBe('typed into the pane: run as a command (a leading / is a command), not sent as a message');
    await claude.waitForScreen((s) => /For more help/.test(s));
    expect(api.requests.slice(before).some((q) => q.kind === 'main' && q.prompt.includes('/help'))).toBe(false);
    await claude.press('Escape', (s) => !/For more help/.test(s));
    await idle();
  });

  it('text a send left in the box: "Send it" submits it, "Clear it" clears it, only while the box holds exactly that', async () => {
    // Someone else's text in the box: neither action touches it.
    await tmux.typeText(claude.paneId, 'not the leftover');
    await claude.waitForScreen((s) => claudeInputText(s) === 'not the leftover');
    const wrong = await call(bridge, id, 'box', { action: 'submit', send_id: 'left-send', request_id: 'box-0' });
    expect(wrong.outcome).toBe(OUTCOME.boxChanged);
    expect(claudeInputText(await claude.capture())).toBe('not the leftover');
    await tmux.tmux('send-keys', '-N', '16', '-t', claude.paneId, 'BSpace');
    await idle();

    await tmux.typeText(claude.paneId, 'leftover words to send');
    await claude.waitForScreen((s) => claudeInputText(s) === 'leftover words to send');
    const sent = await call(bridge, id, 'box', { action: 'submit', send_id: 'left-send', request_id: 'box-1' });
    expect(sent.outcome).toBe(OUTCOME.pressed);
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'leftover words to send');
    const was = [...bridge.hub.sends.values()].flat().find((r) => r.requestId === 'left-send');
    expect(was).toMatchObject({ state: 'typed', outcome: OUTCOME.sentFromBox });
    expect(was?.left).toBeUndefined();
    await idle();

    await tmux.typeText(claude.paneId, 'leftover words to clear');
    await claude.waitForScreen((s) => claudeInputText(s) === 'leftover words to clear');
    const cleared = await call(bridge, id, 'box', { action: 'clear', send_id: 'left-clear', request_id: 'box-2' });
    expect(cleared.outcome).toBe(OUTCOME.pressed);
    expect(claudeInputText(await claude.capture())).toBe('');
    expect([...bridge.hub.sends.values()].flat().find((r) => r.requestId === 'left-clear')).toMatchObject({ state: 'not_sent', outcome: OUTCOME.clearedFromBox });
    expect(api.requests.some((q) => q.kind === 'main' && q.prompt.includes('to clear'))).toBe(false);
  });
});
