import { describe, expect, it } from 'vitest';
import { agentReply, GEMINI_USAGE, geminiMissing, SCRIPTED_PRICES, startChatApi, startGemini, startGeminiApi, startOpencode, startPi, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { paneOverApi, usageUntil } from './usage-kit';

/**
 * Each agent's own record of its model and usage, read by the bridge, equals what the scripted
 * API answered: Gemini CLI's session file, pi's session file, OpenCode's database. Waits are
 * generous: the machine is shared and the agents' starts are CPU bound.
 */
const SLOW = 240_000;
const price = (input: number, output: number) => (SCRIPTED_PRICES.input * input + SCRIPTED_PRICES.output * output) / 1_000_000;

describe('usage from the agents’ own records', () => {
  it.skipIf(geminiMissing() !== null)('Gemini CLI: the model and the tokens its chat file records', async () => {
    await using tmux = await startTmux();
    await using api = await startGeminiApi();
    await using state = await tempDir('collie-state');
    await using gemini = await startGemini(tmux, api);
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const id = `${tmux.name}:${gemini.paneId}`;
    await until(bridge.hub, 'the gemini pane', (h) => h.panes.get(id)?.harness === 'gemini', SLOW);
    api.script(agentReply('Counted.'));
    await gemini.submit('count my tokens');
    const main = await api.waitForRequest((r) => r.kind === 'main', SLOW);
    const u = await usageUntil(bridge, id, 'gemini usage', (x) => x.sessionTokens !== undefined, SLOW);
    expect(u.source).toBe('transcript');
    expect(u.model).toBe(main.model);
    expect(u.contextTokens).toBe(GEMINI_USAGE.promptTokenCount);
    expect(u.sessionTokens).toBe(GEMINI_USAGE.totalTokenCount);
    expect((await paneOverApi(bridge, id)).usage).toEqual(u);
  }, 600_000);

  it('pi: the model, tokens and cost its session file records', async () => {
    await using tmux = await startTmux();
    await using api = await startChatApi();
    await using state = await tempDir('collie-state');
    await using pi = await startPi(tmux, api);
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const id = `${tmux.name}:${pi.paneId}`;
    await until(bridge.hub, 'the pi pane', (h) => h.panes.get(id)?.harness === 'pi', SLOW);
    api.script(() => ({ text: 'One.', usage: { prompt_tokens: 1000, completion_tokens: 200 } }));
    await pi.submit('first');
    await usageUntil(bridge, id, 'the first turn', (x) => x.sessionTokens === 1200, SLOW);
    api.script(() => ({ text: 'Two.', usage: { prompt_tokens: 1500, completion_tokens: 300 } }));
    await pi.submit('second');
    const u = await usageUntil(bridge, id, 'the second turn', (x) => x.sessionTokens === 3000, SLOW);
    expect(u.model).toBe('fake-coder');
    expect(u.contextTokens).toBe(1500);
    expect(u.costUsd).toBeCloseTo(price(1000, 200) + price(1500, 300), 12);
    expect((await paneOverApi(bridge, id)).usage).toEqual(u);
  }, 600_000);

  it('OpenCode: the model, tokens and cost its database records', async () => {
    await using tmux = await startTmux();
    await using api = await startChatApi();
    await using state = await tempDir('collie-state');
    await using oc = await startOpencode(tmux, api, { permission: { bash: 'allow', edit: 'allow' } });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const id = `${tmux.name}:${oc.paneId}`;
    await until(bridge.hub, 'the OpenCode pane', (h) => h.panes.get(id)?.harness === 'opencode', SLOW);
    api.script(() => ({ text: 'One.', usage: { prompt_tokens: 1000, completion_tokens: 200 } }));
    await oc.submit('first');
    await usageUntil(bridge, id, 'the first turn', (x) => x.sessionTokens === 1200, SLOW);
    api.script(() => ({ text: 'Two.', usage: { prompt_tokens: 1500, completion_tokens: 300 } }));
    await oc.submit('second');
    const u = await usageUntil(bridge, id, 'the second turn', (x) => x.sessionTokens === 3000, SLOW);
    expect(u.model).toBe('fake-coder');
    expect(u.contextTokens).toBe(1500);
    expect(u.contextWindow).toBeUndefined();
    expect(u.costUsd).toBeCloseTo(price(1000, 200) + price(1500, 300), 12);
    expect((await paneOverApi(bridge, id)).usage).toEqual(u);
  }, 600_000);
});
