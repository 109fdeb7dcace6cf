import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorBody, ReceiptBody, STOPPING_CLOSE } from '@collie/protocol';
import { repoRoot, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, type TestBridge, until } from './harness';
import { call, finalReceipt } from './send-helpers';
import { EventsClient } from './ws-client';

const fakeClaude = join(repoRoot, 'packages/testkit/fake-agent/claude');

async function cancel(bridge: TestBridge, paneId: string, requestId: string, body = '{}'): Promise<Response> {
  return fetch(`${bridge.url}/api/panes/${encodeURIComponent(paneId)}/sends/${encodeURIComponent(requestId)}/cancel`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bridge.device.headers },
    body,
  });
}

// Issue 17: a bridge that stops on purpose says so; a held send can be taken back.
describe('a bridge that stops, and a held send cancelled', () => {
  it('tells connected phones it is stopping, with close 1001, before any pane is removed', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    const a = await tmux.newSession('one', { cmd: 'sh' });
    const bridge = await bridgeFor(tmux.tmpDir, state.path);
    await until(bridge.hub, 'the pane', (h) => h.panes.get(`${tmux.name}:${a}`));
    const c = new EventsClient(`${bridge.url}/api/events`, bridge.device.headers);
    await c.opened;
    await c.next('sync.reset', (m) => m.type === 'sync.reset');
    const closed = new Promise<{ code: number; reason: string }>((resolve) => c.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    await bridge.stop();
    expect(await c.next('bridge.stopping', (m) => m.type === 'bridge.stopping')).toMatchObject({ run: bridge.hub.run });
    expect(await closed).toEqual(STOPPING_CLOSE);
    expect(c.messages.some((m) => m.type === 'pane.removed')).toBe(false);
    expect(c.messages.at(-1)?.type).toBe('bridge.stopping');
  });

  it('cancels a held and a queued send (not sent: cancelled, never typed), refuses a settled one, and answers hostile input with codes', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    const busy = await tmux.newSession('busy', { cmd: [fakeClaude, 'working'] });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const id = `${tmux.name}:${busy}`;
    await until(bridge.hub, 'the working pane', (h) => h.panes.get(id)?.state === 'working');

    expect((await call(bridge, id, 'send', { text: 'first, held', request_id: 'held-1' })).outcome).toBe('held: agent working');
    expect((await call(bridge, id, 'send', { text: 'second, queued', request_id: 'queued-2' })).outcome).toBe('queued');

    const held = await cancel(bridge, id, 'held-1');
    expect(held.status).toBe(200);
    expect(ReceiptBody.parse(await held.json()).receipt).toMatchObject({ state: 'not_sent', outcome: 'not sent: cancelled', final: true });
    // The one behind it moves up and is held in its turn; then it is cancelled too.
    await until(bridge.hub, 'the queued send held', (h) => h.sends.get(id)?.find((r) => r.requestId === 'queued-2')?.state === 'held');
    expect((await cancel(bridge, id, 'queued-2')).status).toBe(200);
    expect((await finalReceipt(bridge, 'queued-2')).outcome).toBe('not sent: cancelled');
    // Twice is the same answer; a send of another pane, or none, is not found; settled is a conflict.
    expect(ReceiptBody.parse(await (await cancel(bridge, id, 'held-1')).json()).receipt.outcome).toBe('not sent: cancelled');
    const missing = await cancel(bridge, id, 'nope');
    expect([missing.status, ErrorBody.parse(await missing.json()).error.code]).toEqual([404, 'not_found']);
    const elsewhere = await cancel(bridge, `${tmux.name}:%999`, 'held-1');
    expect(elsewhere.status).toBe(404);
    const hostile = await cancel(bridge, id, 'held-1', '{"why":1}');
    expect([hostile.status, ErrorBody.parse(await hostile.json()).error.code]).toEqual([400, 'bad_request']);
    const garbled = await cancel(bridge, id, 'held-1', '{');
    expect(ErrorBody.parse(await garbled.json()).error.code).toBe('bad_json');

    const keys = await call(bridge, id, 'keys', { keys: ['Escape'], request_id: 'keys-3' });
    const settled = await finalReceipt(bridge, keys.requestId);
    expect(settled.final).toBe(true);
    const late = await cancel(bridge, id, 'keys-3');
    expect([late.status, ErrorBody.parse(await late.json()).error.code]).toEqual([409, 'conflict']);
    // Nothing cancelled was typed: the pane never left its running turn for a text send.
    const sent = bridge.hub.sends.get(id) ?? [];
    expect(sent.filter((r) => r.kind === 'text').map((r) => r.outcome)).toEqual(['not sent: cancelled', 'not sent: cancelled']);
  });
});
