import { describe, expect, it } from 'vitest';
import { bashPermission, longTurn, plainReply } from '@collie/testkit';
import { until } from './harness';
import { liveClaude } from './live-rig';
import { call, finalReceipt } from './send-helpers';

/**
 * Two sends held while the agent works are typed one turn at a time: the second waits for the
 * turn the first starts (here a Bash permission dialog the agent opens at once), and goes as a
 * user message of its own. Typed while that turn runs, Claude Code folds it into the turn ("The
 * user sent a new message while you were working: …") though its receipt says typed into the
 * pane. The soak found it on a real Claude Code pane (`soak-31-100070`, seed 31).
 */
describe('two sends held behind a running turn', () => {
  it('the second waits out the turn the first starts, and goes as a new user message', async () => {
    await using rig = await liveClaude({ readyMs: 60_000 });
    const { api, bridge, id } = rig;
    const ask = bashPermission('touch made-by-the-held-send');
    api.script(longTurn(3000, 'Long turn over.'), ask, plainReply('Read the second.'));
    expect((await call(bridge, id, 'send', { text: 'start a long turn', request_id: 'long-1' })).outcome).toBe('typed into the pane');
    await until(bridge.hub, 'working', () => rig.pane()?.state === 'working');
    expect((await call(bridge, id, 'send', { text: 'first held send', request_id: 'held-a' })).outcome).toBe('held: agent working');
    expect(['held: agent working', 'queued']).toContain((await call(bridge, id, 'send', { text: 'second held send', request_id: 'held-b' })).outcome);

    // The first held send starts a turn that asks at once; the second must wait behind its dialog.
    const blocked = await until(bridge.hub, 'the permission card', () => {
      const p = rig.pane();
      return p?.state === 'blocked' && p.card?.answerable && p;
    }, 30_000);
    expect((await finalReceipt(bridge, 'held-a')).outcome).toBe('typed into the pane');
    const yes = await call(bridge, id, 'answer', { signature: blocked.card!.signature, option: 1, request_id: 'held-answer' });
    expect(yes.outcome).toBe('answered');
    expect((await finalReceipt(bridge, 'held-b', 60_000)).outcome).toBe('typed into the pane');
    const req = await api.waitForRequest((q) => q.kind === 'main' && q.userMessages.some((m) => m.includes('second held send')), 30_000);
    expect(req.userMessages.at(-1)).toBe('second held send');
    await rig.idle(30_000);
  }, 180_000);

  // The soak again (soak-31-100018): a send queued behind another was typed the moment that one
  // was (its box emptied, the turn it starts not drawn yet) and folded into that turn.
  it('a send queued behind another waits for the turn that one starts', async () => {
    await using rig = await liveClaude({ readyMs: 60_000 });
    const { api, bridge, id } = rig;
    api.script(longTurn(3000, 'Long turn over.'), plainReply('Read the next.'));
    // A loaded machine, as in the soak: the agent is stopped for 1 s the moment the first send's
    // box shows empty, before it draws the turn that send starts.
    const pgid = rig.pane()!.pid;
    const off = bridge.hub.subscribe((e) => {
      if (e.type !== 'send.updated' || e.receipt.requestId !== 'pair-a' || e.receipt.state !== 'typed') return;
      off();
      process.kill(-pgid, 'SIGSTOP');
      setTimeout(() => process.kill(-pgid, 'SIGCONT'), 1000);
    });
    const [first, next] = await Promise.all([
      call(bridge, id, 'send', { text: 'the first of two', request_id: 'pair-a' }),
      call(bridge, id, 'send', { text: 'the second of two', request_id: 'pair-b' }),
    ]);
    expect(first.outcome).toBe('typed into the pane');
    expect(next.outcome).toBe('queued');
    expect((await finalReceipt(bridge, 'pair-b', 60_000)).outcome).toBe('typed into the pane');
    const req = await api.waitForRequest((q) => q.kind === 'main' && q.userMessages.some((m) => m.includes('the second of two')), 30_000);
    expect(req.userMessages.at(-1)).toBe('the second of two');
    await rig.idle(30_000);
  }, 180_000);
});
