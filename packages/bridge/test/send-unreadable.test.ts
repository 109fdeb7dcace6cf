import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { call, finalReceipt } from './send-helpers';

/** The soak's stand-in agent: a Claude Code screen with a live input box; logs every line submitted to it. */
const standIn = join(repoRoot, 'bench/soak/agent/claude');

// Found by the soak (bench/soak.mjs): an agent's screen read between its clear and its redraw
// reads `unknown`, and a send then went in blind (paste and Enter, no checks). When the redraw
// was a permission dialog, the Enter chose its first option ("Yes") and the receipt said
// "typed into the pane". An agent's screen that cannot be read is now waited on, as a turn is.
describe('a send to an agent pane whose screen cannot be read', () => {
  it('is held, never typed blind; once the screen reads idle it is typed once, verified', async () => {
    await using tmux = await startTmux();
    await using dir = await tempDir('collie-unreadable');
    const fifo = join(dir.path, 'fifo');
    const log = join(dir.path, 'log.jsonl');
    execFileSync('mkfifo', [fifo]);
    const pane = await tmux.newSession('agent', { cmd: [process.execPath, standIn], env: { SOAK_FIFO: fifo, SOAK_LOG: log } });
    await using bridge = await bridgeFor(tmux.tmpDir, join(dir.path, 'state'));
    const id = `${tmux.name}:${pane}`;
    await until(bridge.hub, 'the idle agent', (h) => h.panes.get(id)?.harness === 'claude' && h.panes.get(id)?.state === 'idle');

    writeFileSync(fifo, 'blank\n');
    await until(bridge.hub, 'the blank screen', (h) => h.panes.get(id)?.state === 'unknown' || h.panes.get(id)?.harness !== 'claude', 10_000).catch(() => undefined);
    const held = await call(bridge, id, 'send', { text: 'not into the dark', request_id: 'unreadable-1' });
    expect(held.outcome).toBe('held: agent working');
    // The redraw is a dialog: the send still waits, and nothing answered the dialog.
    writeFileSync(fifo, 'dialog\n');
    await until(bridge.hub, 'the dialog', (h) => h.panes.get(id)?.state === 'blocked');
    const lines = () => readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { line?: string; answer?: unknown });
    expect(() => lines()).toThrow(); // nothing submitted, nothing answered: no log at all
    writeFileSync(fifo, 'idle\n');
    expect((await finalReceipt(bridge, 'unreadable-1', 15_000)).outcome).toBe('typed into the pane');
    await until(bridge.hub, 'the line logged', () => { try { return lines().length > 0; } catch { return false; } });
    expect(lines()).toEqual([expect.objectContaining({ line: 'not into the dark' })]);
  });
});
