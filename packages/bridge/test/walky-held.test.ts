import { describe, expect, it } from 'vitest';
import type { ApiRequest, ScriptBlock, Turn } from '@collie/testkit';
import { bashPermission, claudePermissionDialog, heldTurn, startClaude, startMessagesApi, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import { startBridge } from '../src/bridge';
import { fakePane, type Ran } from './walky/fake-pane';
import { collieBin, paneOf, walkyEnv } from './walky/kit';

const bash = (command: string): Turn => ({ blocks: [{ type: 'tool_use', name: 'Bash', input: { command, description: 'walky talky' } } as ScriptBlock], stopReason: 'tool_use' });
const lines = (out: string) => out.trim().split('\n');
const lastResult = (r: ApiRequest) => r.toolResults[r.toolResults.length - 1]?.text ?? '';

/** The page's 15 s wait, as the CLI took it: never the socket's 5 s, never past the CLI's own limit. */
function waitedTheWait(r: Ran): void {
  expect(r.ms, `the CLI took ${Math.round(r.ms)} ms`).toBeGreaterThanOrEqual(14_500);
  expect(r.ms, `the CLI took ${Math.round(r.ms)} ms`).toBeLessThan(20_000);
}

describe('a send or reply that waits, on the page\'s own 15 s, into a real Claude Code pane', () => {
  it('a turn longer than 15 s, an open dialog, a reply into a busy pane: queued with check later and exit 0 at 15 s, typed once afterwards; a draft answers at once', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using state = await tempDir('collie-walky-held');
    const bin = await collieBin(state.path);
    const env = { ...walkyEnv(state.path), PATH: `${bin}:${process.env.PATH ?? ''}` };
    const s = await fakePane(tmux, state.path, 'sender', 'fresh-idle', env);
    await using claude = await startClaude(tmux, api, { env, allow: ['Bash(collie walky:*)'], session: 'target' });
    // No test knobs: the 15 s wait, the 10-minute hold and the 2-minute queue of the page.
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path));
    const S = await paneOf(bridge, s.paneId, (p) => p.harness === 'claude');
    const T = await paneOf(bridge, claude.paneId, undefined, 60_000);
    const working = () => paneOf(bridge, claude.paneId, (p) => p.state === 'working', 60_000);
    const idle = () => paneOf(bridge, claude.paneId, undefined, 90_000);
    const typedTimes = (id: string) => api.requests.filter((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${id}]`)).length;
    const headerOf = (id: string) => api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${id}]`), 90_000);
    const queued = (r: Ran) => {
      const id = lines(r.out)[0]!;
      expect(r.code, r.err).toBe(0);
      expect(r.err).toBe('');
      expect(lines(r.out)).toEqual([id, `to ${T.address}, claude, ${T.label}`, 'queued', `check later: collie walky status ${id}`]);
      waitedTheWait(r);
      return id;
    };
    const statusOf = async (id: string) => lines((await s.collie(['walky', 'status', id])).out)[1] ?? '';

    // 1. A turn longer than 15 s: send waits the 15 s, prints the fourth line and exits 0; typed once after the turn.
    // The turn works until the CLI has returned (held, not a guessed length): it is longer than the wait however slow the machine.
    using longTurn = heldTurn('Long turn done.');
    api.script(longTurn.script);
    await claude.submit('start a long turn');
    await working();
    const busyId = queued(await s.collie(['walky', 'send', T.address, 'while you work']));
    expect(typedTimes(busyId)).toBe(0);
    await paneOf(bridge, claude.paneId, (p) => p.state === 'working');
    longTurn.release();
    expect((await headerOf(busyId)).prompt).not.toContain('start a long turn');
    await idle();
    expect(await statusOf(busyId)).toBe(`${T.address.slice(0, -5)}  typed into the pane  (this machine)`);
    expect(typedTimes(busyId)).toBe(1);

    // 2. An open permission dialog: nothing goes into it; at 15 s the same lines and exit 0; typed once it is answered.
    api.script(bashPermission('touch held-marker'));
    await claude.submit('make the marker');
    await claude.waitForScreen(claudePermissionDialog, 60_000);
    const heldId = queued(await s.collie(['walky', 'send', T.address, 'after your dialog']));
    await claude.waitForScreen(claudePermissionDialog, 5_000);
    expect(typedTimes(heldId)).toBe(0);
    await claude.press('Enter', (sc) => !claudePermissionDialog(sc));
    await headerOf(heldId);
    await idle();
    expect(await statusOf(heldId)).toContain('typed into the pane');
    expect(typedTimes(heldId)).toBe(1);

    // 3. A reply into a pane on a long turn: the Claude pane messages the sender, then works until the reply has waited its 15 s.
    using waiting = heldTurn('Done waiting.');
    api.script(() => bash(`collie walky send ${S.address} "Is the build green?"`), waiting.script);
    await claude.submit('ask the sender pane');
    const asked = await api.waitForRequest((r) => r.kind === 'main' && /wt_[a-z0-9]{12}/.test(lastResult(r)), 60_000);
    const askId = lines(lastResult(asked))[0]!;
    expect(askId).toMatch(/^wt_[a-z0-9]{12}$/);
    await working();
    const reply = await s.collie(['walky', 'reply', askId, 'Yes, green.']);
    const replyId = queued(reply);
    expect(typedTimes(replyId)).toBe(0);
    waiting.release();
    const got = await headerOf(replyId);
    expect(got.prompt.replace(/\s+/g, ' ')).toContain(`[walky-talky ${replyId}] from agent ${S.address} (claude, ${S.label}) reply to ${askId}:`);
    await idle();
    expect(await statusOf(replyId)).toContain('typed into the pane');
    expect(typedTimes(replyId)).toBe(1);

    // 4. A draft in the box: the receipt is final at once (waiting in the inbox), exit 0, nothing typed.
    await claude.waitForScreen((sc) => sc.includes('Done waiting.'), 30_000);
    await tmux.typeText(claude.paneId, 'my own draft');
    await paneOf(bridge, claude.paneId, (p) => p.draft !== null);
    const drafted = await s.collie(['walky', 'send', T.address, 'over your draft?']);
    expect(drafted.code, drafted.err).toBe(0);
    expect(lines(drafted.out).slice(1)).toEqual([`to ${T.address}, claude, ${T.label}`, 'waiting in the inbox, not typed: draft present']);
    expect(drafted.ms).toBeLessThan(5_000);
    expect(typedTimes(lines(drafted.out)[0]!)).toBe(0);
  }, 360_000);
});
