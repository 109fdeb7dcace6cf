import { describe, expect, it } from 'vitest';
import { startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import { startBridge } from '../src/bridge';
import { QUEUE_LIMIT_MS } from '../src/walky/delivery';
import { fakePane } from './walky/fake-pane';
import { paneOf, walkyEnv } from './walky/kit';

/** A clock the test controls: time moves only when the test advances it, and its timers fire then. */
function testClock(start: number) {
  let t = start;
  const timers = new Set<{ at: number; fn: () => void }>();
  return {
    now: () => t,
    setTimer: (fn: () => void, ms: number) => {
      const x = { at: t + ms, fn };
      timers.add(x);
      return () => void timers.delete(x);
    },
    advance(ms: number) {
      t += ms;
      for (const x of [...timers].sort((a, b) => a.at - b.at)) {
        if (x.at > t) continue;
        timers.delete(x);
        x.fn();
      }
    },
  };
}

const lines = (s: string) => s.trim().split('\n');

describe('a message queued behind another one to the same pane, on a clock the test controls', () => {
  it('waits 2 minutes (the default), then stays in the inbox as pane busy; the one ahead stays held', async () => {
    expect(QUEUE_LIMIT_MS).toBe(2 * 60_000);
    await using tmux = await startTmux();
    await using state = await tempDir('collie-walky-queue');
    const env = walkyEnv(state.path);
    const s = await fakePane(tmux, state.path, 'sender', 'fresh-idle', env);
    // The target has a dialog open: the send protocol holds the first message, the second waits behind it.
    const t = await fakePane(tmux, state.path, 'target', 'permission-edit', env);
    const clock = testClock(Date.now());
    await using bridge = await startBridge({ ...testBridgeOptions(tmux.tmpDir, state.path), walky: { waitMs: 1_000 }, clock });
    await paneOf(bridge, s.paneId, (p) => p.harness === 'claude');
    const T = await paneOf(bridge, t.paneId, (p) => p.harness === 'claude' && p.state === 'blocked');
    const status = async (id: string) => lines((await s.collie(['walky', 'status', id])).out)[1] ?? '';

    const first = await s.collie(['walky', 'send', T.address, 'first, held by the dialog']);
    expect(first.code, first.err).toBe(0);
    expect(lines(first.out).slice(2)).toEqual(['queued', `check later: collie walky status ${lines(first.out)[0]!}`]);
    const second = await s.collie(['walky', 'send', T.address, 'second, behind the first']);
    expect(second.code, second.err).toBe(0);
    const [firstId, secondId] = [lines(first.out)[0]!, lines(second.out)[0]!];
    expect(lines(second.out)[2]).toBe('queued');

    clock.advance(QUEUE_LIMIT_MS - 1);
    expect(await status(secondId)).toContain('  queued  ');
    clock.advance(1);
    await expect.poll(() => status(secondId), { timeout: 30_000 }).toContain('  waiting in the inbox, not typed: pane busy  ');
    // The first is the send protocol's now: still held for its dialog.
    expect(await status(firstId)).toContain('  queued  ');
    // The second waits in the target's inbox, where its agent reads it.
    const inbox = await t.collie(['walky', 'inbox', secondId]);
    expect(inbox.code, inbox.err).toBe(0);
    expect(lines(inbox.out).slice(1)).toEqual(['second, behind the first']);
  }, 120_000);
});
