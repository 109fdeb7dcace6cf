import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { call, finalReceipt } from './send-helpers';

/** The soak's stand-in agent: a Claude Code screen with a live input box; logs every line submitted to it. */
const standIn = join(repoRoot, 'bench/soak/agent/claude');

// Found by the soak (bench/soak.mjs): a pane that closed right after the send's Enter (the agent
// ended, or someone closed it) gave the receipt "not sent: pane gone", though the agent had
// taken the text. `/exit` closes the stand-in's pane as it closes Claude Code's.
describe('a send whose pane closes right after its Enter', () => {
  it('is typed, never "not sent": the pane took the text', async () => {
    await using tmux = await startTmux();
    await using dir = await tempDir('collie-closes');
    const fifo = join(dir.path, 'fifo');
    const log = join(dir.path, 'log.jsonl');
    execFileSync('mkfifo', [fifo]);
    const pane = await tmux.newSession('agent', { cmd: [process.execPath, standIn], env: { SOAK_FIFO: fifo, SOAK_LOG: log } });
    await tmux.newWindow('agent', { cmd: 'cat' });
    await using bridge = await bridgeFor(tmux.tmpDir, join(dir.path, 'state'));
    const id = `${tmux.name}:${pane}`;
    await until(bridge.hub, 'the idle agent', (h) => h.panes.get(id)?.harness === 'claude' && h.panes.get(id)?.state === 'idle');

    await call(bridge, id, 'send', { text: '/exit', request_id: 'closes-1' });
    const receipt = await finalReceipt(bridge, 'closes-1', 15_000);
    expect(readFileSync(log, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { line: string }).line)).toEqual(['/exit']);
    expect(receipt.state, receipt.outcome).toBe('typed');
    expect(receipt.outcome).toMatch(/^typed into the pane/);
  });
});
