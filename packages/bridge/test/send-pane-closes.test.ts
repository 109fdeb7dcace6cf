import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { standInDesk } from './stand-in-rig';
import { call, finalReceipt } from './send-helpers';


// Found by the soak (bench/soak.mjs): a pane that closed right after the send's Enter (the agent
// ended, or someone closed it) gave the receipt "not sent: pane gone", though the agent had
// taken the text. `/exit` closes the stand-in's pane as it closes Claude Code's.
describe('a send whose pane closes right after its Enter', () => {
  it('is typed, never "not sent": the pane took the text', async () => {
    await using desk = await standInDesk('collie-closes', async (d) => void (await d.tmux.newWindow('agent', { cmd: 'cat' })));
    const { log, id, bridge } = desk;

    // Watched from before the send: the pane and its ended receipt may be gone before the call returns.
    const final = finalReceipt(bridge, 'closes-1', 15_000);
    await call(bridge, id, 'send', { text: '/exit', request_id: 'closes-1' });
    const receipt = await final;
    expect(readFileSync(log, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { line: string }).line)).toEqual(['/exit']);
    expect(receipt.state, receipt.outcome).toBe('typed');
    expect(receipt.outcome).toMatch(/^typed into the pane/);
  });
});
