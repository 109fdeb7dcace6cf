import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, OUTCOME, ReceiptBody, type Pane, type SendReceipt } from '@collie/protocol';
import { longTurn, plainReply, type ClaudePane, type MessagesApi, type TmuxServer } from '@collie/testkit';
import { type TestBridge, until } from './harness';
import { liveClaude, type LiveClaude } from './live-rig';
import { call, finalReceipt } from './send-helpers';

/** POST a send; the status and the body as they came. */
async function post(bridge: TestBridge, paneId: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${bridge.url}/api/panes/${encodeURIComponent(paneId)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('sends that wait for a time or for the pane limit to reset (issue 29)', () => {
  let rig: LiveClaude;
  let tmux: TmuxServer, api: MessagesApi, claude: ClaudePane, bridge: TestBridge, id: string;
  /** When each send's receipt first said `typing`, by the test's clock. */
  const typingAt = new Map<string, number>();

  beforeAll(async () => {
    rig = await liveClaude({ api: { fallback: plainReply('Done.') } });
    ({ tmux, api, claude, bridge, id } = rig);
    bridge.hub.subscribe((e) => {
      if (e.type === 'send.updated' && e.receipt.state === 'typing' && !typingAt.has(e.receipt.requestId)) typingAt.set(e.receipt.requestId, Date.now());
    });
    await idle();
  }, 60_000);

  afterAll(() => rig?.[Symbol.asyncDispose]());

  const idle = () => rig.idle(30_000);
  const prompts = (text: string) => api.requests.filter((q) => q.kind === 'main' && q.prompt === text);

  it('a send scheduled 2 s ahead says scheduled, types once within 1 s of its time, and its request id gives the same receipt', async () => {
    const at = Date.now() + 2000;
    const r = await call(bridge, id, 'send', { text: 'later, please', request_id: 'later-1', at: iso(at) });
    expect(r).toMatchObject({ state: 'scheduled', final: false, scheduledFor: iso(at), outcome: `scheduled for ${iso(at)}` });
    expect(bridge.hub.snapshot().sends.find((s) => s.requestId === 'later-1')?.state).toBe('scheduled');
    const again = await call(bridge, id, 'send', { text: 'later, please', request_id: 'later-1', at: iso(at) });
    expect(again).toEqual(r);
    const other = await post(bridge, id, { text: 'later, please', request_id: 'later-1', at: iso(at + 60_000) });
    expect([other.status, ErrorBody.parse(other.json).error.code]).toEqual([409, 'request_id_reused']);
    expect(prompts('later, please')).toHaveLength(0);

    const done = await finalReceipt(bridge, 'later-1');
    expect(done).toMatchObject({ state: 'typed', outcome: OUTCOME.typed, scheduledFor: iso(at) });
    const lag = typingAt.get('later-1')! - at;
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(1000);
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'later, please');
    expect((await call(bridge, id, 'send', { text: 'later, please', request_id: 'later-1', at: iso(at) })).state).toBe('typed');
    await claude.waitForScreen((s) => s.includes('Done.'));
    await idle();
    expect(prompts('later, please')).toHaveLength(1);
  });

  it('a send whose time comes during a turn is held like any send and typed once after it', async () => {
    api.script(longTurn(5000, 'Long turn over.'));
    await claude.submit('a long turn');
    await claude.waitForScreen((s) => /esc to interrupt/i.test(s));
    const seen: string[] = [];
    const off = bridge.hub.subscribe((e) => {
      if (e.type === 'send.updated' && e.receipt.requestId === 'later-busy') seen.push(e.receipt.outcome.replace(/ 20\d\d-.*$/, ''));
    });
    await call(bridge, id, 'send', { text: 'after the long turn', request_id: 'later-busy', at: iso(Date.now() + 1000) });
    const done = await finalReceipt(bridge, 'later-busy');
    off();
    expect(done.outcome).toBe(OUTCOME.typed);
    expect(seen).toEqual(['scheduled for', OUTCOME.queued, OUTCOME.heldWorking, OUTCOME.typing, OUTCOME.typed]);
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'after the long turn');
    await claude.waitForScreen((s) => s.includes('Done.'));
    await idle();
    expect(prompts('after the long turn')).toHaveLength(1);
  });

  it('cancel: a scheduled send ends not sent: cancelled and is never typed', async () => {
    const at = Date.now() + 1500;
    await call(bridge, id, 'send', { text: 'cancel me', request_id: 'later-cancel', at: iso(at) });
    const res = await fetch(`${bridge.url}/api/panes/${encodeURIComponent(id)}/sends/later-cancel/cancel`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: '{}' });
    expect(ReceiptBody.parse(await res.json()).receipt).toMatchObject({ state: 'not_sent', outcome: OUTCOME.cancelled, final: true });
    // Past its time, nothing was typed and the receipt stayed cancelled.
    const after = await call(bridge, id, 'send', { text: 'a later marker', request_id: 'marker-1', at: iso(at + 500) });
    expect(after.state).toBe('scheduled');
    await finalReceipt(bridge, 'marker-1');
    await idle();
    expect(prompts('cancel me')).toHaveLength(0);
    expect(bridge.hub.sends.get(id)?.find((s) => s.requestId === 'later-cancel')?.outcome).toBe(OUTCOME.cancelled);
  });

  it('a pane gone at its time: not sent: pane gone', async () => {
    const shell = await tmux.newSession('gone', { cmd: 'cat' });
    const shellId = `${tmux.name}:${shell}`;
    await until(bridge.hub, 'the cat pane', (h) => h.panes.get(shellId));
    const r = await call(bridge, shellId, 'send', { text: 'to nobody', request_id: 'later-gone', at: iso(Date.now() + 1500) });
    expect(r.state).toBe('scheduled');
    await tmux.killPane(shell);
    expect(await finalReceipt(bridge, 'later-gone')).toMatchObject({ state: 'not_sent', outcome: OUTCOME.paneGone });
  });

  it('bad times are refused with bad_time, at and when together with bad_request, a pane without a reset time with no_reset_time', async () => {
    const code = async (body: unknown) => {
      const r = await post(bridge, id, body);
      return [r.status, ErrorBody.parse(r.json).error.code];
    };
    expect(await code({ text: 'x', request_id: 'bad-1', at: 'tomorrow' })).toEqual([400, 'bad_time']);
    expect(await code({ text: 'x', request_id: 'bad-2', at: '2026-12-05T02:00' })).toEqual([400, 'bad_time']);
    expect(await code({ text: 'x', request_id: 'bad-3', at: iso(Date.now() - 3_600_000) })).toEqual([400, 'bad_time']);
    expect(await code({ text: 'x', request_id: 'bad-4', at: iso(Date.now() + 8 * 86_400_000) })).toEqual([400, 'bad_time']);
    expect(await code({ text: 'x', request_id: 'bad-5', at: iso(Date.now() + 60_000), when: 'limit-reset' })).toEqual([400, 'bad_request']);
    const none = await post(bridge, id, { text: 'x', request_id: 'bad-6', when: 'limit-reset' });
    expect(none.status).toBe(409);
    expect(ErrorBody.parse(none.json).error).toMatchObject({ code: 'no_reset_time', message: expect.stringMatching(/no known usage-limit reset time/) });
    expect(bridge.hub.snapshot().sends.filter((s) => s.requestId.startsWith('bad-'))).toEqual([]);
  });

  it('when the limit resets: follows the pane reset time as it moves, says it waits for it, types once at the new time', async () => {
    // The pane's usage as the usage readers publish it: the pane itself, with its limit.
    const withLimit = (resetsAt: number): Pane => ({ ...bridge.hub.panes.get(id)!, usage: { source: 'transcript', at: Date.now(), limit: { state: 'reached', resetsAt: iso(resetsAt), source: 'screen' } } });
    const first = Date.now() + 1500;
    bridge.hub.publish({ type: 'pane.updated', pane: withLimit(first) });
    const r = await call(bridge, id, 'send', { text: 'continue after the reset', request_id: 'reset-1', when: 'limit-reset' });
    expect(r).toMatchObject({ state: 'scheduled', waitsFor: 'limit-reset', scheduledFor: iso(first), outcome: `scheduled for ${iso(first)}: when the limit resets` });
    expect(bridge.waitsForReset(id)).toBe(true);

    const moved = Date.now() + 3000;
    bridge.hub.publish({ type: 'pane.updated', pane: withLimit(moved) });
    const followed = await until(bridge.hub, 'the send to follow the reset', (h) => h.sends.get(id)?.find((s: SendReceipt) => s.requestId === 'reset-1' && s.scheduledFor === iso(moved)));
    expect(followed.state).toBe('scheduled');
    const done = await finalReceipt(bridge, 'reset-1');
    expect(done.outcome).toBe(OUTCOME.typed);
    const lag = typingAt.get('reset-1')! - moved;
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(1000);
    expect(bridge.waitsForReset(id)).toBe(false);
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'continue after the reset');
    await claude.waitForScreen((s) => s.includes('Done.'));
    expect(prompts('continue after the reset')).toHaveLength(1);
  });
});
