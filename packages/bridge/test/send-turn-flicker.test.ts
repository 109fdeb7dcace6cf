import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OUTCOME } from '@collie/protocol';
import { until } from './harness';
import { standInDesk } from './stand-in-rig';
import { call, finalReceipt } from './send-helpers';

// Found by the soak on real Claude Code panes (soak-31-100020 and -100021, two runs in a row): a
// send typed into a pane asked for a permission dialog; on the loaded machine Claude Code drew
// its idle screen, with no spinner, for longer than the 300 ms a turn's end must hold, before the
// dialog. The next send read the pane idle, was typed into the running turn, and Claude Code
// folded it in ("The user sent a new message while you were working"), though its receipt said
// typed into the pane. After a send's turn, a pane's idle counts once it has held 1.5 s.
describe('a send after the turn another send started', () => {
  it('waits until the idle screen has held 1.5 s, so a spinnerless frame mid-turn takes nothing', async () => {
    await using desk = await standInDesk('collie-turn-flicker');
    const { fifo, id, bridge, tmux, pane } = desk;
    writeFileSync(fifo, 'flicker 900\n');
    expect((await call(bridge, id, 'send', { text: 'ask for a dialog', request_id: 'flicker-1' })).outcome).toBe(OUTCOME.typed);
    await until(bridge.hub, 'the turn shown', (h) => h.panes.get(id)?.state === 'working', 10_000);
    // The frame without a spinner, confirmed as the turn's end (the engine's 300 ms).
    await until(bridge.hub, 'the turn read as ended', (h) => ['done', 'idle'].includes(h.panes.get(id)?.state ?? ''), 10_000);
    const next = await call(bridge, id, 'send', { text: 'the next message', request_id: 'flicker-2' });
    expect(next.outcome).not.toBe(OUTCOME.typed);
    // The dialog comes; the send waits behind it; answered at the pane, the turn ends.
    await until(bridge.hub, 'the dialog', (h) => h.panes.get(id)?.state === 'blocked', 10_000);
    await tmux.sendKeys(pane, '1');
    expect((await finalReceipt(bridge, 'flicker-2', 20_000)).outcome).toBe(OUTCOME.typed);
    await until(bridge.hub, 'both lines logged', () => desk.lines().filter((l) => l.line).length === 2, 10_000);
    expect(desk.lines().map(({ line, answer, inTurn }) => ({ line, answer, inTurn }))).toEqual([
      { line: 'ask for a dialog', answer: undefined, inTurn: undefined },
      { line: undefined, answer: 1, inTurn: undefined },
      { line: 'the next message', answer: undefined, inTurn: undefined },
    ]);
  });
});
