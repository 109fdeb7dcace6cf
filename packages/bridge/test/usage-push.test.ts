import { describe, expect, it } from 'vitest';
import { codexMissing, startClaude, startCodex, startMessagesApi, startPushService, startResponsesApi, startTmux, tempDir, type Turn } from '@collie/testkit';
import { until } from './harness';
import { isShow, isWithdraw, payloadOf, pushBridge, subscribeDevice } from './push-kit';

/**
 * The usage-limit push at the wire (the stand-in push service decrypts it): once when a real
 * agent reaches its limit, naming the pane, the agent and the reset on this machine's clock;
 * withdrawn when the pane works again.
 */
const SLOW = 180_000;
const hhmm = (epochS: number) => {
  const d = new Date(epochS * 1000);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

describe('the usage-limit push', () => {
  it.skipIf(codexMissing() !== null)('Codex at 100 % of its rate limit: one push, withdrawn when it works again', async () => {
    await using tmux = await startTmux();
    await using api = await startResponsesApi();
    await using state = await tempDir('collie-state');
    await using service = await startPushService();
    await using codex = await startCodex(tmux, api);
    await using bridge = await pushBridge(tmux.tmpDir, state.path, service, { delayMs: 500 });
    const id = `${tmux.name}:${codex.paneId}`;
    await until(bridge.hub, 'the codex pane', (h) => h.panes.get(id)?.harness === 'codex', SLOW);
    await subscribeDevice(bridge, service.subscribe());

    const reset = Math.floor(Date.now() / 1000) + 3600;
    const limits = (percent: number) => ({ 'x-codex-primary-used-percent': String(percent), 'x-codex-primary-window-minutes': '300', 'x-codex-primary-reset-at': String(reset) });
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
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using state = await tempDir('collie-state');
    await using service = await startPushService();
    await using claude = await startClaude(tmux, api, { env: { CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-scripted', ANTHROPIC_API_KEY: '' }, readyTimeoutMs: 40_000 });
    await using bridge = await pushBridge(tmux.tmpDir, state.path, service, { delayMs: 500 });
    const id = `${tmux.name}:${claude.paneId}`;
    await until(bridge.hub, 'the claude pane', (h) => h.panes.get(id)?.harness === 'claude', SLOW);
    await subscribeDevice(bridge, service.subscribe());
    const reset = Math.ceil((Date.now() / 1000 + 2 * 3600) / 60) * 60;
    api.setFallback((): Turn => ({
      blocks: [],
      error: {
        status: 429,
        type: 'rate_limit_error',
        message: 'This request would exceed your account’s rate limit.',
        headers: { 'anthropic-ratelimit-unified-status': 'rejected', 'anthropic-ratelimit-unified-reset': String(reset), 'anthropic-ratelimit-unified-representative-claim': 'five_hour', 'x-should-retry': 'false' },
      },
    }));
    await claude.submit('one more thing');
    const pushed = await service.next((p) => isShow(p, (x) => x.kind === 'limit'), SLOW);
    const shown = payloadOf(pushed);
    if (shown.type !== 'push.show') throw new Error('not a show');
    expect(shown.title).toBe(`Usage limit reached on ${bridge.hub.panes.get(id)?.label ?? ''} (Claude Code) · resets ${hhmm(reset)}`);
    expect(bridge.hub.panes.get(id)?.usage?.limit).toEqual({ state: 'reached', resetsAt: new Date(reset * 1000).toISOString(), source: 'screen' });
  }, 600_000);
});
