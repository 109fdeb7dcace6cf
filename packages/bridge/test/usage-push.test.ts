import { describe, expect, it } from 'vitest';
import { codexMissing } from '@collie/testkit';
import { claudeLimitError, claudeLimitRig, codexLimitRig, codexLimits, hhmm, SLOW } from './limit-kit';
import { isShow, isWithdraw, payloadOf } from './push-kit';

/**
 * The usage-limit push at the wire (the stand-in push service decrypts it): once when a real
 * agent reaches its limit, naming the pane, the agent and the reset on this machine's clock;
 * withdrawn when the pane works again.
 */
describe('the usage-limit push', () => {
  it.skipIf(codexMissing() !== null)('Codex at 100 % of its rate limit: one push, withdrawn when it works again', async () => {
    await using rig = await codexLimitRig();
    const { api, service, agent: codex, bridge, id } = rig;

    const reset = Math.floor(Date.now() / 1000) + 3600;
    const limits = (percent: number) => codexLimits(percent, reset);
    api.script(() => ({ text: 'That was the last one.', headers: limits(100) }));
    await codex.submit('use it all');
    const pushed = await service.next((p) => isShow(p, (x) => x.kind === 'limit'), SLOW);
    const shown = payloadOf(pushed);
    if (shown.type !== 'push.show') throw new Error('not a show');
    const label = bridge.hub.panes.get(id)?.label ?? '';
    expect(shown.title).toBe(`Usage limit reached on ${label} (Codex) · resets ${hhmm(reset)}`);
    expect(shown.url).toBe(`#/pane/${encodeURIComponent(id)}`);

    // Codex offers a lighter model at its limit: keep the current one.
    await codex.waitForScreen((s) => s.includes('Approaching rate limits'), SLOW);
    await codex.press('2', (s) => !s.includes('Approaching rate limits'), 30_000);
    // It works again (the limit lifted early): the push is withdrawn, and was shown once.
    api.script(() => ({ text: 'Back at it.', headers: limits(10), durationMs: 3000 }));
    await codex.submit('go on');
    await service.next((p) => isWithdraw(p, shown.tag), SLOW);
    expect(service.received.filter((p) => isShow(p, (x) => x.kind === 'limit'))).toHaveLength(1);
    expect(service.refused).toEqual([]);
  }, 600_000);

  it('Claude Code’s screen shows its limit: one push naming the reset', async () => {
    await using rig = await claudeLimitRig();
    const { api, service, agent: claude, bridge, id } = rig;
    const reset = Math.ceil((Date.now() / 1000 + 2 * 3600) / 60) * 60;
    api.setFallback(() => claudeLimitError(reset));
    await claude.submit('one more thing');
    const pushed = await service.next((p) => isShow(p, (x) => x.kind === 'limit'), SLOW);
    const shown = payloadOf(pushed);
    if (shown.type !== 'push.show') throw new Error('not a show');
    expect(shown.title).toBe(`Usage limit reached on ${bridge.hub.panes.get(id)?.label ?? ''} (Claude Code) · resets ${hhmm(reset)}`);
    expect(bridge.hub.panes.get(id)?.usage?.limit).toEqual({ state: 'reached', resetsAt: new Date(reset * 1000).toISOString(), source: 'screen' });
  }, 600_000);
});
