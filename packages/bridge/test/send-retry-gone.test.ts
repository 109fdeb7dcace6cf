import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { call, finalReceipt } from './send-helpers';

const fakeClaude = join(repoRoot, 'packages/testkit/fake-agent/claude');

// Found by the soak (bench/soak.mjs): a phone that lost a send's answer and asked again after
// the pane had closed got 404, so it never learned the send's final receipt.
describe('the same request again after its pane closed', () => {
  it('is answered with its receipt (200), not 404; another request with that id is still 409; a new id is 404', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    const busy = await tmux.newSession('busy', { cmd: [fakeClaude, 'working'] });
    await tmux.newWindow('busy', { cmd: [fakeClaude, 'fresh-idle'] });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const id = `${tmux.name}:${busy}`;
    await until(bridge.hub, 'the working pane', (h) => h.panes.get(id)?.state === 'working');

    const body = { text: 'after the turn', request_id: 'retry-after-close' };
    expect((await call(bridge, id, 'send', body)).outcome).toBe('held: agent working');
    execFileSync('tmux', ['-L', tmux.name, 'kill-pane', '-t', busy], { env: tmux.env });
    expect((await finalReceipt(bridge, 'retry-after-close', 10_000)).outcome).toBe('not sent: pane gone');
    await until(bridge.hub, 'the pane to be gone', (h) => !h.panes.has(id));

    const again = await call(bridge, id, 'send', body);
    expect(again).toMatchObject({ requestId: 'retry-after-close', outcome: 'not sent: pane gone', final: true });
    const post = (b: unknown) => fetch(`${bridge.url}/api/panes/${encodeURIComponent(id)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: JSON.stringify(b) });
    const other = await post({ text: 'other words', request_id: 'retry-after-close' });
    expect(other.status).toBe(409);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe('request_id_reused');
    const fresh = await post({ text: 'new', request_id: 'never-seen' });
    expect(fresh.status).toBe(404);
  });
});
