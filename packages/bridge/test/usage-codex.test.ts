import { describe, expect, it } from 'vitest';
import { CODEX_MODEL, CODEX_USAGE, codexMissing } from '@collie/testkit';
import { codexKind, liveAgentPane } from './live-rig';
import { paneOverApi, usageUntil } from './usage-kit';

/**
 * The real Codex TUI's rollout: `token_count` events with the model's context window and the
 * `rate_limits` Codex read from the API's `x-codex-primary-*` headers.
 */
const SLOW = 180_000;
const missing = codexMissing();
if (missing) console.log(`skipped: ${missing}`);

const limits = (percent: number, resetAt: number) => ({
  'x-codex-primary-used-percent': String(percent),
  'x-codex-primary-window-minutes': '300',
  'x-codex-primary-reset-at': String(resetAt),
});

describe.skipIf(missing !== null)('usage from the real Codex rollout', () => {
  it('the model, the context and its window, the session’s tokens and the usage limit as Codex recorded them', async () => {
    await using desk = await liveAgentPane(codexKind(), SLOW);
    const { api, agent: codex, bridge, id } = desk;

    const resetAt = Math.floor(Date.now() / 1000) + 3 * 3600;
    api.script(() => ({ text: 'Counted.', headers: limits(42, resetAt) }));
    await codex.submit('count my tokens');
    const u = await usageUntil(bridge, id, 'codex usage with its limit', (x) => x.limit !== undefined && x.sessionTokens !== undefined, SLOW);
    expect(u.model).toBe(CODEX_MODEL);
    expect(u.contextTokens).toBe(CODEX_USAGE.input);
    expect(u.sessionTokens).toBe(CODEX_USAGE.input + CODEX_USAGE.output);
    expect(u.contextWindow).toBeGreaterThan(0);
    expect(u.windowFrom).toBe('transcript');
    expect(u.limit).toEqual({ state: 'ok', usedShare: 0.42, windowMinutes: 300, resetsAt: new Date(resetAt * 1000).toISOString(), source: 'transcript' });
    expect((await paneOverApi(bridge, id)).usage).toEqual(u);

    // At 100 % the limit is reached: the pane says so.
    api.script(() => ({ text: 'Last one.', headers: limits(100, resetAt) }));
    await codex.submit('one more');
    const reached = await usageUntil(bridge, id, 'the limit reached', (x) => x.limit?.state === 'reached', SLOW);
    expect(reached.limit).toEqual({ state: 'reached', usedShare: 1, windowMinutes: 300, resetsAt: new Date(resetAt * 1000).toISOString(), source: 'transcript' });
  }, 600_000);
});
