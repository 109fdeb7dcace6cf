import { describe, expect, it } from 'vitest';
import { codexMissing, type ReceivedPush } from '@collie/testkit';
import { OUTCOME, type PushPayload } from '@collie/protocol';
import type { TestBridge } from './harness';
import { claudeLimitError, claudeLimitRig, codexLimitRig, codexLimits, hhmm, SLOW } from './limit-kit';
import { isShow, isWithdraw, payloadOf } from './push-kit';
import { call, finalReceipt } from './send-helpers';
import { paneOverApi, usageUntil } from './usage-kit';

/**
 * Both halves of issue 29 on real agents: the pane reaches its usage limit (the row says so
 * over the API, one push names the reset), a send scheduled `when: "limit-reset"` reads
 * `scheduled` with the pane's reset time, and at the reset it is typed once and "Ready again"
 * is pushed once.
 */
type Show = Extract<PushPayload, { type: 'push.show' }>;
const showOf = (p: ReceivedPush): Show => {
  const x = payloadOf(p);
  if (x.type !== 'push.show') throw new Error(`not a show: ${x.type}`);
  return x;
};
const shows = (received: readonly ReceivedPush[], kind: Show['kind']) => received.filter((p) => isShow(p, (x) => x.kind === kind));
const iso = (epochS: number) => new Date(epochS * 1000).toISOString();

/** When each receipt of `bridge` first said `typing`, by the test's clock. */
function typingTimes(bridge: TestBridge): Map<string, number> {
  const at = new Map<string, number>();
  bridge.hub.subscribe((e) => {
    if (e.type === 'send.updated' && e.receipt.state === 'typing' && !at.has(e.receipt.requestId)) at.set(e.receipt.requestId, Date.now());
  });
  return at;
}

describe('a send that waits for the usage limit to reset, on real agents', () => {
  it.skipIf(codexMissing() !== null)('Codex at 100 %: Limit reached, one push, the send typed once at the reset and Ready again once', async () => {
    await using rig = await codexLimitRig();
    const { api, service, agent: codex, bridge, id } = rig;
    const typing = typingTimes(bridge);
    const reset = Math.floor(Date.now() / 1000) + 30;
    api.script(() => ({ text: 'That was the last one.', headers: codexLimits(100, reset) }));
    await codex.submit('use it all');

    const limit = showOf(await service.next((p) => isShow(p, (x) => x.kind === 'limit'), SLOW));
    expect(limit.title).toBe(`Usage limit reached on ${bridge.hub.panes.get(id)?.label ?? ''} (Codex) · resets ${hhmm(reset)}`);
    expect((await paneOverApi(bridge, id)).usage?.limit).toMatchObject({ state: 'reached', resetsAt: iso(reset) });
    // Codex offers a lighter model at its limit: keep the current one.
    await codex.waitForScreen((s) => s.includes('Approaching rate limits'), SLOW);
    await codex.press('2', (s) => !s.includes('Approaching rate limits'), 30_000);

    const r = await call(bridge, id, 'send', { text: 'carry on after the reset', request_id: 'codex-reset', when: 'limit-reset' });
    expect(r).toMatchObject({ state: 'scheduled', waitsFor: 'limit-reset', scheduledFor: iso(reset) });
    expect(Date.now()).toBeLessThan(reset * 1000);
    api.script(() => ({ text: 'Carrying on.', headers: codexLimits(3, reset + 5 * 3600) }));

    const ready = showOf(await service.next((p) => isShow(p, (x) => x.kind === 'ready'), SLOW));
    expect(ready.url).toBe(`#/pane/${encodeURIComponent(id)}`);
    expect((await finalReceipt(bridge, 'codex-reset', SLOW)).outcome).toBe(OUTCOME.typed);
    expect(typing.get('codex-reset')! - reset * 1000).toBeGreaterThanOrEqual(0);
    expect(typing.get('codex-reset')! - reset * 1000).toBeLessThan(1000);
    await api.waitForRequest((q) => q.prompt === 'carry on after the reset', SLOW);
    // It works again: the limit push is withdrawn; each push came once, the prompt reached the API once.
    await service.next((p) => isWithdraw(p, limit.tag), SLOW);
    await usageUntil(bridge, id, 'the limit lifted', (u) => u.limit?.state === 'ok', SLOW);
    expect(api.requests.filter((q) => q.prompt === 'carry on after the reset')).toHaveLength(1);
    expect(shows(service.received, 'limit')).toHaveLength(1);
    expect(shows(service.received, 'ready')).toHaveLength(1);
    expect(service.refused).toEqual([]);
  }, 600_000);

  it('Claude Code’s screen limit (minutes only): the send typed once at the next minute and Ready again once', async () => {
    await using rig = await claudeLimitRig();
    const { api, service, agent: claude, bridge, id } = rig;
    const typing = typingTimes(bridge);
    // Claude Code words its reset to the minute ("limit resets 8:50am"): the next minute with room for the set-up.
    const reset = Math.ceil((Date.now() / 1000 + 25) / 60) * 60;
    const later = 'carry on after the reset';
    // The API refuses until the reset, then answers (Claude Code itself retries its last prompt then).
    api.setFallback(() => (Date.now() < reset * 1000 ? claudeLimitError(reset) : { blocks: [{ type: 'text', text: 'Carrying on.' }] }));
    await claude.submit('one more thing');

    const limit = showOf(await service.next((p) => isShow(p, (x) => x.kind === 'limit'), SLOW));
    expect(limit.title).toBe(`Usage limit reached on ${bridge.hub.panes.get(id)?.label ?? ''} (Claude Code) · resets ${hhmm(reset)}`);
    expect((await paneOverApi(bridge, id)).usage?.limit).toEqual({ state: 'reached', resetsAt: iso(reset), source: 'screen' });

    const r = await call(bridge, id, 'send', { text: later, request_id: 'claude-reset', when: 'limit-reset' });
    expect(r).toMatchObject({ state: 'scheduled', waitsFor: 'limit-reset', scheduledFor: iso(reset) });
    expect(Date.now()).toBeLessThan(reset * 1000);

    const ready = showOf(await service.next((p) => isShow(p, (x) => x.kind === 'ready'), SLOW));
    expect(ready.url).toBe(`#/pane/${encodeURIComponent(id)}`);
    expect((await finalReceipt(bridge, 'claude-reset', SLOW)).outcome).toBe(OUTCOME.typed);
    expect(typing.get('claude-reset')! - reset * 1000).toBeGreaterThanOrEqual(0);
    expect(typing.get('claude-reset')! - reset * 1000).toBeLessThan(1000);
    // Claude Code sends the prompt its limit refused with the next one, in the same user turn.
    const carries = (q: { kind: string; prompt: string }) => q.kind === 'main' && q.prompt.split('\n').at(-1) === later;
    await api.waitForRequest(carries, SLOW);
    await claude.waitForScreen((s) => s.includes('Carrying on.'), SLOW);
    expect(api.requests.filter(carries)).toHaveLength(1);
    expect(shows(service.received, 'limit')).toHaveLength(1);
    expect(shows(service.received, 'ready')).toHaveLength(1);
    expect(service.refused).toEqual([]);
  }, 600_000);
});
