import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { call, finalReceipt } from './send-helpers';

const fakeClaude = join(repoRoot, 'packages/testkit/fake-agent/claude');

describe('held sends end with a reason in words', () => {
  it('a hold that outlasts its limit is given up: not sent: timed out; a pane that closes: not sent: pane gone', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    // Stand-in agents that draw a real Claude screen of a running turn and never finish it.
    const busy = await tmux.newSession('busy', { cmd: [fakeClaude, 'working'] });
    const closing = await tmux.newWindow('busy', { cmd: [fakeClaude, 'permission-edit'] });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path, { holdMs: 1500 });
    const id = (p: string) => `${tmux.name}:${p}`;
    await until(bridge.hub, 'the working pane', (h) => h.panes.get(id(busy))?.state === 'working');
    await until(bridge.hub, 'the blocked pane', (h) => h.panes.get(id(closing))?.state === 'blocked');

    const held = await call(bridge, id(busy), 'send', { text: 'later', request_id: 'hold-limit' });
    expect(held.outcome).toBe('held: agent working');
    const t0 = Date.now();
    expect((await finalReceipt(bridge, 'hold-limit', 10_000)).outcome).toBe('not sent: timed out');
    expect(Date.now() - t0).toBeGreaterThan(1000);

    const dialog = await call(bridge, id(closing), 'send', { text: 'after the dialog', request_id: 'pane-goes' });
    expect(dialog.outcome).toBe('held: dialog open');
    execFileSync('tmux', ['-L', tmux.name, 'kill-pane', '-t', closing], { env: tmux.env });
    expect((await finalReceipt(bridge, 'pane-goes', 10_000)).outcome).toBe('not sent: pane gone');
  });
});
