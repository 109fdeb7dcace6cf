import { describe, expect, it } from 'vitest';
import { startClaude, startMessagesApi, startTmux, tempDir, type Turn } from '@collie/testkit';
import { knownWindow } from '../src/usage/windows';
import { bridgeFor, until } from './harness';
import { paneOverApi, usageUntil } from './usage-kit';

/** The real Claude Code TUI's transcript: the model and token figures the scripted Messages API answered. */
const SLOW = 180_000;

const withUsage = (text: string, usage: NonNullable<Turn['usage']>) => (): Turn => ({ blocks: [{ type: 'text', text }], usage });

describe('usage from the real Claude Code transcript', () => {
  it('the model, the context of the latest turn, the session’s tokens; the window from the table of Claude Code’s own model registry', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using state = await tempDir('collie-state');
    await using claude = await startClaude(tmux, api);
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const id = `${tmux.name}:${claude.paneId}`;
    await until(bridge.hub, 'the claude pane', (h) => h.panes.get(id)?.harness === 'claude', SLOW);

    api.script(withUsage('First.', { input_tokens: 1200, cache_creation_input_tokens: 300, cache_read_input_tokens: 5000, output_tokens: 45 }));
    await claude.submit('first');
    await usageUntil(bridge, id, 'the first turn', (u) => u.sessionTokens === 6545, SLOW);
    api.script(withUsage('Second.', { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 6500, output_tokens: 55 }));
    await claude.submit('second');
    const u = await usageUntil(bridge, id, 'the second turn', (x) => x.sessionTokens === 6545 + 6565, SLOW);
    const main = api.requests.filter((r) => r.kind === 'main').at(-1);
    expect(u.model).toBe(main?.model);
    expect(u.contextTokens).toBe(6510);
    // The scripted API answers as the model Claude Code asked for; its window is Claude Code's own registry's.
    expect(u.contextWindow).toBe(knownWindow(u.model ?? ''));
    expect(u.contextWindow).toBeGreaterThan(0);
    expect(u.windowFrom).toBe('table');
    expect(u.costUsd).toBeUndefined();
    expect(u.source).toBe('transcript');
    expect((await paneOverApi(bridge, id)).usage).toEqual(u);
  }, 600_000);
});

describe('the usage limit on the real Claude Code screen', () => {
  // Claude Code shows the limit and its reset to a claude.ai login (an OAuth token); to an API key, a bare 429.
  it('a 429 with the unified limit’s reset: the pane says limit reached and when it resets', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using state = await tempDir('collie-state');
    await using claude = await startClaude(tmux, api, { env: { CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-scripted', ANTHROPIC_API_KEY: '' }, readyTimeoutMs: 40_000 });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const id = `${tmux.name}:${claude.paneId}`;
    await until(bridge.hub, 'the claude pane', (h) => h.panes.get(id)?.harness === 'claude', SLOW);
    // Claude Code shows the reset to the minute: a reset on a whole minute reads exactly.
    const reset = Math.ceil((Date.now() / 1000 + 2 * 3600) / 60) * 60;
    const limited = (): Turn => ({
      blocks: [],
      error: {
        status: 429,
        type: 'rate_limit_error',
        message: 'This request would exceed your account’s rate limit.',
        headers: {
          'anthropic-ratelimit-unified-status': 'rejected',
          'anthropic-ratelimit-unified-reset': String(reset),
          'anthropic-ratelimit-unified-representative-claim': 'five_hour',
          'x-should-retry': 'false',
        },
      },
    });
    api.setFallback(limited);
    await claude.submit('one more thing');
    await claude.waitForScreen((s) => s.includes('Usage limit reached · limit resets'), SLOW);
    const u = await usageUntil(bridge, id, 'the limit reached', (x) => x.limit?.state === 'reached', 30_000);
    expect(u.limit).toEqual({ state: 'reached', resetsAt: new Date(reset * 1000).toISOString(), source: 'screen' });
  }, 600_000);
});
