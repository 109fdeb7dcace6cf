import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OUTCOME } from '@collie/protocol';
import { repoRoot } from '@collie/testkit';
import { until } from './harness';
import { standInDesk, type StandInDesk } from './stand-in-rig';
import { call, finalReceipt } from './send-helpers';

const TEXT = 'into the box and never into the dialog';

/**
 * Sends the stand-in `control` on the screen read that shows TEXT while input is off (the send
 * is typing), and waits for its ack: the next keys the stand-in gets are the Enter's, since no
 * one else's reach it now.
 */
async function armAtTyping(desk: StandInDesk, control: string): Promise<void> {
  const arm = join(desk.work.path, 'arm.sh');
  const word = control.split(' ')[0]!;
  writeFileSync(arm, [`printf '${control}\\n' > '${desk.fifo}'`, 'i=0', `until grep -q ${word} '${desk.fifo}.ack' 2>/dev/null; do i=$((i+1)); [ $i -gt 1000 ] && exit 1; sleep 0.01; done`].join('\n'));
  const when = `#{&&:#{C:${TEXT}},#{&&:#{pane_input_off},#{==:#{@collie_race},}}}`;
  await desk.tmux.tmux('set-hook', '-g', 'after-capture-pane', `if-shell -F '${when}' 'set -g @collie_race 1 ; run-shell "sh ${arm}"'`);
}

// Found by the soak (bench/soak.mjs): an agent opened a permission dialog on its own after a
// send's text showed in the box and before its Enter; the Enter chose the dialog's first option,
// the text was never submitted, and the receipt said "typed into the pane". Here the dialog
// opens at that moment, every time: tmux hooks on the bridge's own screen read, the first one
// that shows the text in the box while the pane's input is off (the send is typing), open the
// dialog and hold the bridge's next tmux commands (its Enter) until the dialog is on the screen.
describe('a dialog the agent opens between a send\'s box check and its Enter', () => {
  it('takes no Enter: the send is held with its text in the box and submitted once the dialog is answered', async () => {
    await using desk = await standInDesk('collie-dialog-race');
    const { tmux, fifo, pane, id, bridge, work: dir } = desk;

    // run-shell (without -b) holds the command queue of the client whose capture fired the hook.
    const opener = join(dir.path, 'open-dialog.sh');
    writeFileSync(
      opener,
      [
        `printf 'dialog\\n' > '${fifo}'`,
        'i=0',
        `until tmux -S '${tmux.socketPath}' capture-pane -p -t '${pane}' | grep -q 'Do you want'; do i=$((i+1)); [ $i -gt 1000 ] && exit 1; sleep 0.01; done`,
      ].join('\n'),
    );
    // Armed by the first screen read that shows the text while input is off; fired by the
    // cursor read that follows it in the same screen read, whose reply is already on its way.
    const arm = `#{&&:#{C:${TEXT}},#{&&:#{pane_input_off},#{==:#{@collie_race},}}}`;
    await tmux.tmux('set-hook', '-g', 'after-capture-pane', `if-shell -F '${arm}' 'set -g @collie_race armed'`);
    await tmux.tmux('set-hook', '-g', 'after-display-message', `if-shell -F '#{==:#{@collie_race},armed}' 'set -g @collie_race 1 ; run-shell "sh ${opener}"'`);

    const sent = call(bridge, id, 'send', { text: TEXT, request_id: 'race-1' });
    const held = await until(bridge.hub, 'the send held or ended', (h) => [...h.sends.values()].flat().find((r) => r.requestId === 'race-1' && (r.final || r.outcome === OUTCOME.heldDialog)), 15_000);
    expect((await tmux.tmux('show-options', '-gv', '@collie_race')).trim()).toBe('1'); // the dialog opened mid-send
    expect(held.outcome).toBe(OUTCOME.heldDialog);
    await sent;
    const lines = desk.lines;
    expect(() => lines()).toThrow(); // nothing answered, nothing submitted: no log at all

    // A person answers the dialog at the pane: its input is on again.
    await tmux.sendKeys(pane, '1');
    expect((await finalReceipt(bridge, 'race-1', 20_000)).outcome).toBe(OUTCOME.typed);
    await until(bridge.hub, 'the line logged', () => { try { return lines().length > 1; } catch { return false; } });
    expect(lines().map(({ line, answer }) => ({ line, answer }))).toEqual([{ answer: 1 }, { line: TEXT }]);
  });

  // The soak again (soak-31-104): the agent switched to its dialog just before the Enter
  // reached it and tmux drew the dialog only after the guard had passed, so the Enter answered
  // the dialog; the receipt said "typed into the pane", as the dialog over the box read as the
  // box emptied. Here the stand-in opens its dialog as the Enter arrives, and takes the Enter
  // 600 ms later (a loaded machine), so the dialog is on the screen after the Enter.
  it('says so when a dialog that opened as Enter went in took the Enter, and leaves the text in the box', async () => {
    await using desk = await standInDesk('collie-dialog-enter');
    const { tmux, id, bridge } = desk;
    await armAtTyping(desk, 'dialog-at-key 600');

    await call(bridge, id, 'send', { text: TEXT, request_id: 'race-2' });
    const receipt = await finalReceipt(bridge, 'race-2', 20_000);
    expect((await tmux.tmux('show-options', '-gv', '@collie_race')).trim()).toBe('1');
    expect({ state: receipt.state, outcome: receipt.outcome }).toEqual({ state: 'not_submitted', outcome: OUTCOME.enterTookDialog });
    // The soak counts such an answer against this receipt, by its words.
    expect(readFileSync(join(repoRoot, 'bench/soak/actions.mjs'), 'utf8')).toContain(`'${OUTCOME.enterTookDialog}'`);
    await until(bridge.hub, 'the answer logged', () => { try { return desk.lines().length > 0; } catch { return false; } });
    expect(desk.lines().map(({ line, answer }) => ({ line, answer }))).toEqual([{ answer: 1 }]);
    // The text waits in the box, never submitted.
    await until(bridge.hub, 'the text back in the box', (h) => h.panes.get(id)?.draft === TEXT);
    expect(desk.lines()).toHaveLength(1);
  });
  // The 60-minute soak (seed 2026, four times in 4,995 sends): the same race, but the dialog
  // was drawn and answered between two of the bridge's reads, so no read saw it; the screens
  // after the Enter showed the turn it allowed running with the text still in the box, and the
  // receipt said "typed into the pane". Here the stand-in's dialog takes the Enter before it is
  // ever drawn.
  it('says so when a dialog no read saw took the Enter: a turn runs with the text still in the box', async () => {
    await using desk = await standInDesk('collie-dialog-unseen');
    const { tmux, id, bridge } = desk;
    await armAtTyping(desk, 'dialog-unseen 1500');

    await call(bridge, id, 'send', { text: TEXT, request_id: 'race-3' });
    const receipt = await finalReceipt(bridge, 'race-3', 20_000);
    expect((await tmux.tmux('show-options', '-gv', '@collie_race')).trim()).toBe('1');
    expect({ state: receipt.state, outcome: receipt.outcome }).toEqual({ state: 'not_submitted', outcome: OUTCOME.enterTookDialog });
    // The turn ends with the text waiting in the box: one answer, the text never submitted (no
    // second Enter went into the turn).
    await until(bridge.hub, 'the text in the box', (h) => h.panes.get(id)?.draft === TEXT && h.panes.get(id)?.state !== 'working');
    expect(desk.lines().map(({ line, answer }) => ({ line, answer }))).toEqual([{ answer: 1 }]);
  });
});
