import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OUTCOME, ReceiptBody, Snapshot, type SendReceipt } from '@collie/protocol';
import { longTurn, plainReply, startClaude, startMessagesApi, startTmux, tempDir, testDevice } from '@collie/testkit';
import { ReceiptStore } from '../src/send/receipt-store';
import { bridgeProcess, claudePaneReady } from './bridge-process';
import { EventsClient } from './ws-client';

/** The test's paired device: made before the first start, it must stay paired across kill -9. */
let auth: Record<string, string> = {};

const paneReady = (url: string, tmuxId: string) => claudePaneReady(url, auth, tmuxId);

async function send(url: string, id: string, text: string, requestId: string) {
  const res = await fetch(`${url}/api/panes/${encodeURIComponent(id)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ text, request_id: requestId }) });
  return ReceiptBody.parse(await res.json()).receipt;
}

describe('one request id never types twice, across kill -9 of the bridge', () => {
  it('types once, and the same id after a restart returns the stored receipt', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using state = await tempDir('collie-state');
    await using claude = await startClaude(tmux, api);
    const env = { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_STATE_DIR: state.path, COLLIE_CONFIG_DIR: join(state.path, 'config') };
    api.script(plainReply('Once.'));
    auth = (await testDevice(state.path)).headers;

    const first = await bridgeProcess(env);
    try {
      const id = await paneReady(first.url, claude.paneId);
      const r = await send(first.url, id, 'type me once', 'restart-1');
      expect(r.outcome).toBe('typed into the pane');
      await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'type me once');
      expect((await send(first.url, id, 'type me once', 'restart-1')).outcome).toBe('typed into the pane');
    } finally {
      first.child.kill('SIGKILL');
    }
    await new Promise((r) => first.child.once('exit', r));

    // The reply is awaited once the next bridge runs: a control client of the killed bridge
    // that tmux 3.3a keeps attached, its output unread, stops the server reading the pane (the
    // agent's next draw waits) until a bridge ends it (`mux/tmux/orphans.ts`).
    const second = await bridgeProcess(env);
    try {
      await claude.waitForScreen((s) => s.includes('Once.'));
      const id = await paneReady(second.url, claude.paneId);
      const again = await send(second.url, id, 'type me once', 'restart-1');
      expect(again.outcome).toBe('typed into the pane');
      expect(again.requestId).toBe('restart-1');
      await new Promise((r) => setTimeout(r, 1500));
      expect(api.requests.filter((q) => q.kind === 'main' && q.prompt === 'type me once')).toHaveLength(1);
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }
  });
});

const snapshotSends = async (url: string): Promise<SendReceipt[]> => Snapshot.parse(await (await fetch(`${url}/api/snapshot`, { headers: auth })).json()).sends;

describe('after a restart (even kill -9) the phone sees every unfinished send and the latest receipts (issue 15, fault 5)', () => {
  it('a held send, a send caught mid-typing and an earlier receipt are in the snapshot and the event stream; the pane takes keys again', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi({ fallback: plainReply('Fine.') });
    await using state = await tempDir('collie-state');
    await using claude = await startClaude(tmux, api);
    await using other = await startClaude(tmux, api);
    const env = { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_STATE_DIR: state.path, COLLIE_CONFIG_DIR: join(state.path, 'config') };
    auth = (await testDevice(state.path)).headers;

    const first = await bridgeProcess(env);
    let id = '';
    try {
      id = await paneReady(first.url, claude.paneId);
      expect((await send(first.url, id, 'an earlier send', 'earlier-1')).outcome).toBe('typed into the pane');
      await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'an earlier send');
      await claude.waitForScreen((s) => s.includes('Fine.'));
      await paneReady(first.url, claude.paneId);
      api.script(longTurn(6000, 'Long turn over.'));
      await claude.submit('a long turn');
      await claude.waitForScreen((s) => /esc to interrupt/i.test(s));
      const held = await send(first.url, id, 'held across the restart', 'held-x');
      expect(held.state).toBe('held');
    } finally {
      first.child.kill('SIGKILL');
    }
    await new Promise((r) => first.child.once('exit', r));

    // A crash between the paste and Enter: the log says typing, and the pane's input is off.
    const otherId = `${tmux.name}:${other.paneId}`;
    const store = await ReceiptStore.open(state.path);
    const t = Date.now();
    await store.put({ receipt: { requestId: 'mid-x', paneId: otherId, kind: 'text', summary: 'caught mid-typing', state: 'typing', outcome: OUTCOME.typing, final: false, createdAt: t, updatedAt: t }, text: 'caught mid-typing' });
    await store.close();
    // As the crashed bridge left it: input off, marked as switched off by a process that no longer runs.
    await tmux.tmux('select-pane', '-d', '-t', other.paneId);
    await tmux.tmux('set-option', '-p', '-t', other.paneId, '@collie-input-off', `${process.pid}:0`);

    const second = await bridgeProcess(env);
    try {
      const sends = await snapshotSends(second.url);
      expect(sends.find((r) => r.requestId === 'earlier-1')).toMatchObject({ state: 'typed', final: true });
      expect(sends.find((r) => r.requestId === 'mid-x')).toMatchObject({ state: 'not_submitted', outcome: OUTCOME.interrupted, final: true });
      // Still held (or typed already, if the turn ended while the bridge started).
      expect(sends.find((r) => r.requestId === 'held-x')?.state).toMatch(/^(held|queued|typing|typed)$/);
      const events = new EventsClient(`${second.url}/api/events?since=0`, auth);
      await events.opened;
      await events.next('the held send in the replay', (m) => m.type === 'send.updated' && m.receipt.requestId === 'held-x');
      await events.next('the held send typed', (m) => m.type === 'send.updated' && m.receipt.requestId === 'held-x' && m.receipt.outcome === 'typed into the pane', 30_000);
      events.ws.close();
      await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'held across the restart', 30_000);
      // The bridge put the input of the pane it may have left off back on.
      const off = async () => (await tmux.tmux('display-message', '-p', '-t', other.paneId, '#{pane_input_off}')).trim();
      for (let i = 0; i < 100 && (await off()) !== '0'; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await off()).toBe('0');
    } finally {
      second.child.kill('SIGKILL');
      await new Promise((r) => second.child.once('exit', r));
    }
    // And once more, after that run's kill -9: the held send's final receipt is still there.
    const third = await bridgeProcess(env);
    try {
      expect((await snapshotSends(third.url)).find((r) => r.requestId === 'held-x')).toMatchObject({ state: 'typed', final: true });
    } finally {
      third.child.kill('SIGTERM');
      await new Promise((r) => third.child.once('exit', r));
    }
    expect(api.requests.filter((q) => q.kind === 'main' && q.prompt === 'held across the restart')).toHaveLength(1);
  });
});
