import { describe, expect, it } from 'vitest';
import { startClaude, startMessagesApi, startTmux, tempDir, type Turn } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { paneOverApi, usageUntil } from './usage-kit';

/** The real Claude Code TUI's transcript: the model and token figures the scripted Messages API answered. */
const SLOW = 180_000;

const withUsage = (text: string, usage: NonNullable<Turn['usage']>) => (): Turn => ({ blocks: [{ type: 'text', text }], usage });

describe('usage from the real Claude Code transcript', () => {
  it('the model, the context of the latest turn, the session’s tokens; the window from the known-models table', async () => {
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
    expect(u.contextWindow).toBe(200_000);
    expect(u.windowFrom).toBe('table');
    expect(u.costUsd).toBeUndefined();
    expect(u.source).toBe('transcript');
    expect((await paneOverApi(bridge, id)).usage).toEqual(u);
  }, 600_000);
});
