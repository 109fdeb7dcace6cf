import { describe, expect, it } from 'vitest';
import { bashPermission, claudeInputReady, claudePermissionDialog, claudeWorking, longTurn, startClaude, startMessagesApi, startTmux, tempDir, type TmuxServer } from '@collie/testkit';
import type { Pane } from '@collie/protocol';
import { DIALOG_SETTLE_MS } from '../src/send/send-service';
import { bridgeFor, until } from './harness';

/** When `predicate` first holds on the pane's screen, read as often as tmux allows (~every 20 ms). */
async function screenTurns(tmux: TmuxServer, pane: string, predicate: (s: string) => boolean, ms = 30_000): Promise<number> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (predicate(await tmux.capture(pane))) return Date.now();
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the screen never turned: ${await tmux.capture(pane)}`);
}

describe('the state engine on the real Claude Code TUI', () => {
  it('reports working during a long turn, blocked on a permission dialog, done when a turn ends, each within 1 s', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using state = await tempDir('collie-state');
    await using claude = await startClaude(tmux, api);
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const hub = bridge.hub;
    const id = `${tmux.name}:${claude.paneId}`;
    const stateOf = (want: Pane['state']) => (h: typeof hub) => {
      const p = h.panes.get(id);
      return p?.state === want ? { pane: p, at: Date.now() } : undefined;
    };
    const first = await until(hub, 'claude idle', stateOf('idle'));
    expect(first.pane.harness).toBe('claude');
    expect(first.pane.dialog).toBeNull();

    // A long turn: working while it runs.
    api.script(longTurn(5000, 'Finished the long think.'));
    const working = until(hub, 'working', stateOf('working'), 20_000);
    const screenWorking = screenTurns(tmux, claude.paneId, claudeWorking);
    await claude.submit('think for a while');
    const w = await working;
    expect(w.at - (await screenWorking)).toBeLessThan(1000);

    // The turn ends: done (nobody has opened the pane).
    const done = until(hub, 'done', stateOf('done'), 20_000);
    const screenIdle = screenTurns(tmux, claude.paneId, (s) => s.includes('Finished the long think.') && claudeInputReady(s) && !claudeWorking(s));
    const d = await done;
    expect(d.at - (await screenIdle)).toBeLessThan(1000);

    // Opening the pane turns done into idle.
    const res = await fetch(`${bridge.url}/api/panes/${encodeURIComponent(id)}/seen`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: '{}' });
    expect(res.status).toBe(200);
    expect(hub.panes.get(id)?.state).toBe('idle');

    // A Bash permission dialog: blocked, with its kind.
    api.script(bashPermission('touch made-by-bash'));
    const blocked = until(hub, 'blocked', stateOf('blocked'), 20_000);
    const screenDialog = screenTurns(tmux, claude.paneId, claudePermissionDialog);
    await claude.submit('run the command');
    const b = await blocked;
    const dialogAt = await screenDialog;
    expect(b.at - dialogAt).toBeLessThan(1000);
    expect(b.pane.dialog).toBe('permission');

    // Answered at the terminal: the command runs, the turn ends, done again. The TUI ignores
    // keys for DIALOG_SETTLE_MS after a dialog opens (against stray presses), so Enter goes once
    // the dialog has shown that long, and again only when neither the screen nor the API has
    // moved for 10 s: an Enter more after the dialog closed would be someone at the terminal, and
    // the pane would rightly read idle, not done (a loaded machine redrew it later than 1.5 s).
    const before = api.requests.length;
    const answered = () => api.requests.slice(before).some((r) => r.toolResults.length > 0);
    await new Promise((r) => setTimeout(r, Math.max(0, dialogAt + DIALOG_SETTLE_MS - Date.now())));
    for (let i = 0; i < 3 && !answered() && claudePermissionDialog(await tmux.capture(claude.paneId)); i++) {
      await tmux.sendKeys(claude.paneId, 'Enter');
      await screenTurns(tmux, claude.paneId, (s) => answered() || !claudePermissionDialog(s), 10_000).catch(() => undefined);
    }
    const again = await until(hub, 'done after the dialog', stateOf('done'), 20_000);
    expect(again.pane.dialog).toBeNull();
  });
});
