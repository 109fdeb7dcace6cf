import { describe, expect, it } from 'vitest';
import { bashPermission, claudePermissionDialog, startClaude, startMessagesApi, startPushService, startTmux, tempDir } from '@collie/testkit';
import { until } from './harness';
import { isShow, isWithdraw, payloadOf, pushBridge, subscribeDevice } from './push-kit';

const DELAY = 2000;

describe('push from the real Claude Code TUI', () => {
  it('a permission dialog reaches the push service decrypted, naming the command; answering at the desk withdraws it', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using state = await tempDir('collie-state');
    await using service = await startPushService();
    await using claude = await startClaude(tmux, api);
    await using bridge = await pushBridge(tmux.tmpDir, state.path, service, { delayMs: DELAY });
    const id = `${tmux.name}:${claude.paneId}`;
    await until(bridge.hub, 'claude idle', (h) => h.panes.get(id)?.state === 'idle', 60_000);
    await subscribeDevice(bridge, service.subscribe());

    api.script(bashPermission('touch pushed-by-collie', { description: 'Make the marker file' }));
    await claude.submit('make the marker file');
    const blockedAt = await until(bridge.hub, 'blocked', (h) => (h.panes.get(id)?.state === 'blocked' ? Date.now() : null), 60_000);
    const pushed = await service.next((p) => isShow(p), 60_000);
    const shown = payloadOf(pushed);
    if (shown.type !== 'push.show') throw new Error('not a show');
    expect(shown.title).toMatch(/^Permission needed in /);
    expect(shown.body).toContain('Bash: Make the marker file · touch pushed-by-collie');
    expect(shown.url).toBe(`#/pane/${encodeURIComponent(id)}`);
    expect(pushed.at - blockedAt).toBeGreaterThanOrEqual(DELAY - 50);

    // Answered at the desk: the TUI ignores keys for a moment after a dialog opens, so press until it closes.
    for (let i = 0; i < 20 && claudePermissionDialog(await tmux.capture(claude.paneId)); i++) {
      await tmux.sendKeys(claude.paneId, 'Enter');
      await until(bridge.hub, 'the dialog closed', (h) => h.panes.get(id)?.state !== 'blocked', 1500).catch(() => undefined);
    }
    const gone = await service.next((p) => isWithdraw(p, shown.tag), 60_000);
    expect(gone.topic).toBe(pushed.topic);
    expect(service.received.filter((p) => isShow(p))).toHaveLength(1);
    expect(service.refused).toEqual([]);
  }, 180_000);
});
