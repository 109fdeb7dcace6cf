import { describe, expect, it } from 'vitest';
import { bashPermission, claudePermissionDialog, longTurn, testBridgeOptions } from '@collie/testkit';
import { startBridge } from '../src/bridge';
import { paneOf, walkyDesk } from './walky/kit';

const lines = (out: string) => out.trim().split('\n');

describe('walky delivery through the send protocol, into a real Claude Code pane', () => {
  it('holds for a turn and a dialog, never interleaves, keeps a draft, and gives up at its limits', async () => {
    await using desk = await walkyDesk('collie-walky-delivery');
    const { tmux, api, state, sender: s, claude } = desk;
    // The page's limits, shortened: a hold of 10 s (10 minutes), a queue of 3 s (2 minutes), send's wait 1.5 s (15 s).
    await using bridge = await startBridge({ ...testBridgeOptions(tmux.tmpDir, state.path), holdMs: 10_000, walky: { queueMs: 3_000, waitMs: 1_500 } });
    await paneOf(bridge, s.paneId, (p) => p.harness === 'claude');
    const T = await paneOf(bridge, claude.paneId);
    const send = (body: string) => s.collie(['walky', 'send', T.address, body]);
    const status = async (id: string) => lines((await s.collie(['walky', 'status', id])).out)[1] ?? '';
    const until = async (what: string, f: () => Promise<boolean>, ms = 60_000) => {
      const end = Date.now() + ms;
      while (!(await f())) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const working = () => paneOf(bridge, claude.paneId, (p) => p.state === 'working');
    const idle = () => paneOf(bridge, claude.paneId);
    const headerOf = (id: string) => api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${id}]`), 60_000);

    // A busy pane holds: the receipt says queued with "check later", then typed after the turn.
    api.script(longTurn(5_000, 'Busy turn done.'));
    await claude.submit('start a long turn');
    await working();
    const busy = await send('while you work');
    expect(busy.code).toBe(0);
    const busyId = lines(busy.out)[0]!;
    expect(lines(busy.out).slice(2)).toEqual(['queued', `check later: collie walky status ${busyId}`]);
    expect((await headerOf(busyId)).prompt).not.toContain('start a long turn');
    await until('typed', async () => (await status(busyId)).includes('typed into the pane'));
    expect(await status(busyId)).toBe(`${T.address.slice(0, -5)}  typed into the pane  (this machine)`);
    await idle();

    // Two messages racing to one pane: each typed alone, as its own prompt.
    const [one, two] = await Promise.all([send('first of two'), send('second of two')]);
    const ids = [lines(one.out)[0]!, lines(two.out)[0]!];
    const prompts = await Promise.all(ids.map(headerOf));
    for (const [i, p] of prompts.entries()) expect(p.prompt).not.toContain(ids[1 - i]!);
    await until('both typed', async () => (await Promise.all(ids.map(status))).every((l) => l.includes('typed into the pane')));
    await idle();

    // An open dialog holds: nothing goes into it; typed once it is answered.
    api.script(bashPermission('touch walky-marker'));
    await claude.submit('make the marker');
    await claude.waitForScreen(claudePermissionDialog, 30_000);
    const held = await send('after your dialog');
    const heldId = lines(held.out)[0]!;
    expect(lines(held.out)[2]).toBe('queued');
    await claude.waitForScreen(claudePermissionDialog, 5_000); // still the same dialog, nothing typed into it
    await claude.press('Enter', (sc) => !claudePermissionDialog(sc));
    await headerOf(heldId);
    await until('typed after the dialog', async () => (await status(heldId)).includes('typed into the pane'));
    await idle();

    // The limits: a message held past the hold, and one queued behind it past the queue limit, wait in the inbox as pane busy.
    api.script(longTurn(16_000, 'A very long turn.'));
    await claude.submit('start a very long turn');
    await working();
    const first = lines((await send('held too long')).out)[0]!;
    const second = lines((await send('queued too long')).out)[0]!;
    await until('the queue limit', async () => (await status(second)).includes('waiting in the inbox, not typed: pane busy'), 20_000);
    expect(await status(first)).toContain('queued');
    await until('the hold limit', async () => (await status(first)).includes('waiting in the inbox, not typed: pane busy'), 30_000);
    await idle();

    // A draft in the box is never typed over: the message waits in the inbox as draft present.
    await claude.waitForScreen((sc) => sc.includes('A very long turn.'), 30_000);
    await tmux.typeText(claude.paneId, 'my own draft');
    await paneOf(bridge, claude.paneId, (p) => p.draft !== null);
    const drafted = await send('over your draft?');
    expect(drafted.code).toBe(0);
    expect(lines(drafted.out)[2]).toBe('waiting in the inbox, not typed: draft present');
    expect(api.requests.some((r) => r.prompt.includes(lines(drafted.out)[0]!))).toBe(false);
  }, 300_000);
});
