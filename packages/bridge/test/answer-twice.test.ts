import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OUTCOME } from '@collie/protocol';
import { until } from './harness';
import { standInDesk } from './stand-in-rig';
import { call } from './send-helpers';


// Found by the soak (bench/soak.mjs): two phones (or a double tap) answered one dialog at once.
// The second answer read the pane right after the first one's key went in, before the agent had
// drawn the answer: the dialog still showed, so its key went in too, into the input box of an
// agent whose dialog was gone (an answer typed, never taken, and a stray digit in the box). An
// answer now waits for the agent to draw after its last key, so the next one reads that.
describe('two answers to one dialog at once', () => {
  it('the first is taken, the second refused as the ask changed; nothing reaches the box', async () => {
    await using desk = await standInDesk('collie-answer-twice');
    const { fifo, id, bridge } = desk;
    const lines = desk.lines;

    for (let round = 0; round < 5; round++) {
      writeFileSync(fifo, 'dialog\n');
      const card = await until(bridge.hub, 'the dialog', (h) => h.panes.get(id)?.state === 'blocked' && h.panes.get(id)?.card);
      const [a, b] = await Promise.all(['a', 'b'].map((k) => call(bridge, id, 'answer', { signature: card.signature, option: 1, request_id: `twice-${round}-${k}` })));
      expect([a!.outcome, b!.outcome].sort()).toEqual([OUTCOME.answered, OUTCOME.askChanged].sort());
      await until(bridge.hub, 'the answer logged', () => lines().length === round + 1);
      writeFileSync(fifo, 'idle\n');
      await until(bridge.hub, 'the dialog gone', (h) => ['idle', 'done'].includes(h.panes.get(id)?.state ?? '') && h.panes.get(id)?.card === null);
      expect(bridge.hub.panes.get(id)?.draft ?? null).toBeNull();
    }
    expect(lines()).toEqual(Array.from({ length: 5 }, () => expect.objectContaining({ answer: 1 })));
  });
});
