import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { until } from './harness';
import { standInDesk } from './stand-in-rig';
import { call, finalReceipt } from './send-helpers';


// Found by the soak (bench/soak.mjs): an agent's screen read between its clear and its redraw
// reads `unknown`, and a send then went in blind (paste and Enter, no checks). When the redraw
// was a permission dialog, the Enter chose its first option ("Yes") and the receipt said
// "typed into the pane". An agent's screen that cannot be read is now waited on, as a turn is.
describe('a send to an agent pane whose screen cannot be read', () => {
  it('is held, never typed blind; once the screen reads idle it is typed once, verified', async () => {
    await using desk = await standInDesk('collie-unreadable');
    const { fifo, id, bridge } = desk;

    writeFileSync(fifo, 'blank\n');
    await until(bridge.hub, 'the blank screen', (h) => h.panes.get(id)?.state === 'unknown' || h.panes.get(id)?.harness !== 'claude', 10_000).catch(() => undefined);
    const held = await call(bridge, id, 'send', { text: 'not into the dark', request_id: 'unreadable-1' });
    expect(held.outcome).toBe('held: agent working');
    // The redraw is a dialog: the send still waits, and nothing answered the dialog.
    writeFileSync(fifo, 'dialog\n');
    await until(bridge.hub, 'the dialog', (h) => h.panes.get(id)?.state === 'blocked');
    const lines = desk.lines;
    expect(() => lines()).toThrow(); // nothing submitted, nothing answered: no log at all
    writeFileSync(fifo, 'idle\n');
    expect((await finalReceipt(bridge, 'unreadable-1', 15_000)).outcome).toBe('typed into the pane');
    await until(bridge.hub, 'the line logged', () => { try { return lines().length > 0; } catch { return false; } });
    expect(lines()).toEqual([expect.objectContaining({ line: 'not into the dark' })]);
  });
});
