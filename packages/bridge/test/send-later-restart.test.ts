import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReceiptBody, Snapshot, type SendReceipt } from '@collie/protocol';
import { plainReply, startClaude, startMessagesApi, startTmux, tempDir, testDevice } from '@collie/testkit';
import { bridgeProcess, claudePaneReady } from './bridge-process';
import { EventsClient } from './ws-client';

let auth: Record<string, string> = {};
const iso = (ms: number) => new Date(ms).toISOString();

const paneReady = (url: string, tmuxId: string) => claudePaneReady(url, auth, tmuxId);

async function sendAt(url: string, id: string, text: string, requestId: string, at: number): Promise<SendReceipt> {
  const res = await fetch(`${url}/api/panes/${encodeURIComponent(id)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ text, request_id: requestId, at: iso(at) }) });
  return ReceiptBody.parse(await res.json()).receipt;
}

const snapshotSends = async (url: string): Promise<SendReceipt[]> => Snapshot.parse(await (await fetch(`${url}/api/snapshot`, { headers: auth })).json()).sends;

describe('a scheduled send across kill -9 of the bridge (issue 29)', () => {
  it('one whose time passed while the bridge was down is typed at start, one still ahead within 1 s of its time; each once', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi({ fallback: plainReply('Done.') });
    await using state = await tempDir('collie-state');
    await using claude = await startClaude(tmux, api);
    const env = { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_STATE_DIR: state.path, COLLIE_CONFIG_DIR: join(state.path, 'config') };
    auth = (await testDevice(state.path)).headers;

    const first = await bridgeProcess(env);
    const past = Date.now() + 2500;
    const ahead = Date.now() + 12_000;
    try {
      const id = await paneReady(first.url, claude.paneId);
      expect((await sendAt(first.url, id, 'due while down', 'down-1', past)).state).toBe('scheduled');
      expect((await sendAt(first.url, id, 'due after the restart', 'ahead-1', ahead)).state).toBe('scheduled');
    } finally {
      first.child.kill('SIGKILL');
    }
    await new Promise((r) => first.child.once('exit', r));
    // The first one's time passes while no bridge runs.
    while (Date.now() < past + 500) await new Promise((r) => setTimeout(r, past + 500 - Date.now()));
    expect(api.requests.filter((q) => q.kind === 'main')).toHaveLength(0);

    const second = await bridgeProcess(env);
    try {
      const events = new EventsClient(`${second.url}/api/events?since=0`, auth);
      await events.opened;
      await events.next('the overdue send typed', (m) => m.type === 'send.updated' && m.receipt.requestId === 'down-1' && m.receipt.outcome === 'typed into the pane', 30_000);
      await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'due while down', 30_000);
      await claude.waitForScreen((s) => s.includes('Done.'));
      const typing = await events.next('the send ahead typing', (m) => m.type === 'send.updated' && m.receipt.requestId === 'ahead-1' && m.receipt.state === 'typing', 30_000);
      const lag = Date.now() - ahead;
      expect(typing.type === 'send.updated' && typing.receipt.updatedAt - ahead).toBeGreaterThanOrEqual(0);
      expect(lag).toBeLessThan(1000);
      await events.next('the send ahead typed', (m) => m.type === 'send.updated' && m.receipt.requestId === 'ahead-1' && m.receipt.final, 30_000);
      events.ws.close();
      await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'due after the restart', 30_000);
    } finally {
      second.child.kill('SIGKILL');
      await new Promise((r) => second.child.once('exit', r));
    }
    // Once more after that kill -9: both stay typed, nothing is typed again.
    const third = await bridgeProcess(env);
    try {
      const sends = await snapshotSends(third.url);
      expect(sends.find((r) => r.requestId === 'down-1')).toMatchObject({ state: 'typed', final: true });
      expect(sends.find((r) => r.requestId === 'ahead-1')).toMatchObject({ state: 'typed', final: true, scheduledFor: iso(ahead) });
      await paneReady(third.url, claude.paneId);
    } finally {
      third.child.kill('SIGTERM');
      await new Promise((r) => third.child.once('exit', r));
    }
    expect(api.requests.filter((q) => q.kind === 'main' && q.prompt === 'due while down')).toHaveLength(1);
    expect(api.requests.filter((q) => q.kind === 'main' && q.prompt === 'due after the restart')).toHaveLength(1);
  });
});
