import { momentWords, type Pane, type PaneUsage } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { ManualClock } from './manual-clock';
import { testPane } from './test-pane';
import { type UsageShow, UsagePushes } from './usage-pushes';

/** The usage pushes' rules, on a hand-moved clock: once per limit, withdrawn when the pane works, Ready again only when a send waits, context once per session. */
function rig(waiting = false) {
  const clock = new ManualClock();
  const shown: UsageShow[] = [];
  const withdrawn: string[] = [];
  const pushes = new UsagePushes({ now: () => clock.now, timer: clock.timer, show: (s) => shown.push(s), withdraw: (t) => withdrawn.push(t), waitsForReset: () => waiting });
  return { clock, shown, withdrawn, pushes };
}
const at = (ms: number) => new Date(ms).toISOString();
const usage = (over: Partial<PaneUsage>): PaneUsage => ({ source: 'transcript', at: 0, ...over });
const limited = (resetsAt: number, state: Pane['state'] = 'idle') =>
  testPane({ id: 's:%1', label: 'shop-api', harness: 'claude', state, usage: usage({ limit: { state: 'reached', resetsAt: at(resetsAt), source: 'screen' } }) });

describe('usage pushes', () => {
  it('a reached limit pushes once, naming the pane, the agent and the reset; working again withdraws it', () => {
    const { shown, withdrawn, pushes, clock } = rig();
    const reset = Date.UTC(2026, 0, 1, 15, 0);
    clock.now = reset - 2 * 3_600_000;
    pushes.update(limited(reset));
    pushes.update(limited(reset));
    expect(shown.map((s) => s.kind)).toEqual(['limit']);
    expect(shown[0]?.title).toBe(`Usage limit reached on shop-api (Claude Code) · resets ${momentWords(at(reset), clock.now)}`);
    expect(shown[0]?.title).toMatch(/ · resets ([A-Z][a-z]{2} )?\d\d:\d\d$/);
    pushes.update(limited(reset, 'working'));
    expect(withdrawn).toEqual([shown[0]?.tag]);
  });

  it('Ready again at the reset only when a send waits for it', () => {
    for (const waiting of [false, true]) {
      const { clock, shown, pushes } = rig(waiting);
      pushes.update(limited(60_000));
      clock.advance(59_999);
      expect(shown.map((s) => s.kind)).toEqual(['limit']);
      clock.advance(1);
      expect(shown.map((s) => s.kind)).toEqual(waiting ? ['limit', 'ready'] : ['limit']);
    }
  });

  it('Ready again once when the agent goes on by itself at the reset before the reset timer rang, asking about this very reset', () => {
    const clock = new ManualClock();
    const shown: UsageShow[] = [];
    const asked: Array<string | undefined> = [];
    const pushes = new UsagePushes({ now: () => clock.now, timer: clock.timer, show: (s) => shown.push(s), withdraw: () => undefined, waitsForReset: (_id, resetsAt) => (asked.push(resetsAt), true) });
    pushes.update(limited(60_000));
    clock.now = 60_000; // the reset's timer is late (a busy loop); the screen already shows the agent working
    pushes.update(limited(60_000, 'working'));
    clock.advance(1000);
    expect(shown.map((s) => s.kind)).toEqual(['limit', 'ready']);
    expect(asked).toEqual([at(60_000)]);
    // Working before the reset (the limit lifted early): no Ready again.
    pushes.update(limited(120_000));
    pushes.update(limited(120_000, 'working'));
    clock.advance(60_000);
    expect(shown.map((s) => s.kind)).toEqual(['limit', 'ready', 'limit']);
  });

  it('context at 90 % once per session: again only after it fell back under', () => {
    const { shown, pushes } = rig();
    const ctx = (tokens: number) => testPane({ id: 's:%1', harness: 'codex', usage: usage({ contextTokens: tokens, contextWindow: 1000 }) });
    for (const t of [500, 900, 950, 990]) pushes.update(ctx(t));
    expect(shown.map((s) => s.title)).toEqual(['Context at 90 % in collie#main']);
    pushes.update(ctx(100));
    pushes.update(ctx(920));
    expect(shown).toHaveLength(2);
  });
});
