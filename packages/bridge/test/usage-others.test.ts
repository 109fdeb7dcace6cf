import { describe, expect, it } from 'vitest';
import { startTmux, tempDir, USAGE_AGENTS } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { paneOverApi, usageUntil } from './usage-kit';

/**
 * Each agent's own record of its model and usage, read by the bridge, equals what the scripted
 * API answered: Gemini CLI's session file, pi's session file, OpenCode's database (the sessions:
 * USAGE_AGENTS of the testkit). Waits are generous: the machine is shared and the agents' starts
 * are CPU bound.
 */
const SLOW = 240_000;

describe('usage from the agents’ own records', () => {
  for (const agent of USAGE_AGENTS) {
    it.skipIf(agent.missing() !== null)(`${agent.name}: the model, tokens and cost its own record gives`, async () => {
      await using tmux = await startTmux();
      await using state = await tempDir('collie-state');
      await using session = await agent.start(tmux);
      await using bridge = await bridgeFor(tmux.tmpDir, state.path);
      const id = `${tmux.name}:${session.pane.paneId}`;
      await until(bridge.hub, `the ${agent.name} pane`, (h) => h.panes.get(id)?.harness === agent.harness, SLOW);
      const reported = await session.run((n) => usageUntil(bridge, id, `${n} tokens`, (x) => x.sessionTokens === n, SLOW));
      const u = await usageUntil(bridge, id, `${agent.name} usage`, (x) => x.sessionTokens === reported.sessionTokens, SLOW);
      expect(u.source).toBe('transcript');
      expect(u.model).toBe(reported.model);
      expect(u.contextTokens).toBe(reported.contextTokens);
      // None of the three records its model's window, and none of their models is in the table.
      expect(u.contextWindow).toBeUndefined();
      if (reported.costUsd === undefined) expect(u.costUsd).toBeUndefined();
      else expect(u.costUsd).toBeCloseTo(reported.costUsd, 12);
      // The API serves the same figures; the record may have been written again since (OpenCode
      // stamps its session row anew after the turn, e.g. with its title), so its time may be later.
      const served = (await paneOverApi(bridge, id)).usage;
      expect({ ...served, at: 0 }).toEqual({ ...u, at: 0 });
      expect(served?.at).toBeGreaterThanOrEqual(u.at);
    }, 600_000);
  }
});
