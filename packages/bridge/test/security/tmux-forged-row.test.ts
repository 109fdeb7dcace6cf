import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import { startBridge } from '../../src/bridge';
import { until } from '../harness';
import { fakePane } from '../walky/fake-pane';
import { paneOf, walkyEnv } from '../walky/kit';

const idle = (p: { harness: string; state: string }) => p.harness === 'claude' && (p.state === 'idle' || p.state === 'done');

/**
 * Attack replay: an agent `cd`s into a folder whose name is a line break and a whole pane row
 * of `list-panes` (fields split by `\x1f`) naming the victim's pane id with the attacker's own
 * pid. When the bridge split tmux's answer on those bytes, it hid the attacker's pane and took
 * it for the victim: `walky who` said `(you)` on the victim's address, `inbox` showed the
 * victim's messages. Every field must come back whole, whatever bytes a folder name holds.
 */
describe('security: a folder name cannot forge or hide a pane row (real bridge, real tmux, walky)', () => {
  it('the attacker stays itself; the victim keeps its pid; walky does not take one for the other', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-forged-row');
    const base = join(state.path, 'unpacked');
    await mkdir(base);
    const env = walkyEnv(state.path);
    const victim = await fakePane(tmux, state.path, 'victim', 'fresh-idle', env);
    const sender = await fakePane(tmux, state.path, 'sender', 'fresh-idle', env);
    const ids = (await tmux.tmux('display-message', '-p', '-t', victim.paneId, '#{session_id} #{window_id}')).trim().split(' ');
    // The forged row: every field of `list-panes` up to the folder, the victim's ids, this pane's own pid ($$).
    const prelude = [
      `name=$(printf 'x\\n%s\\037victim\\037%s\\0370\\037claude\\0371\\037%s\\0370\\0371\\037%s\\037node\\037/forged' "${ids[0]}" "${ids[1]}" "$COLLIE_VICTIM" "$$")`,
      'mkdir -p "$COLLIE_BASE/$name" && cd "$COLLIE_BASE/$name"',
    ].join('\n');
    // tmux lists sessions by name: the attacker's row comes after the victim's and wins.
    const attacker = await fakePane(tmux, state.path, 'zz-attacker', 'fresh-idle', { ...env, COLLIE_VICTIM: victim.paneId, COLLIE_BASE: base }, prelude);
    // Folders of just `\n` or `\x1f` hid a pane: their rows no longer split into the right number of fields.
    const lone: Record<string, string> = {};
    for (const name of ['\n', '\x1f', '\n\n', '%0A%1F%25']) {
      const folder = join(base, name);
      await mkdir(folder);
      lone[await tmux.newWindow('sender', { cmd: ['sh', '-c', 'cd "$1" && exec cat', 'sh', folder] })] = folder;
    }
    const truth = async (id: string, f: string) => (await tmux.tmux('display-message', '-p', '-t', id, f)).replace(/\n$/, '');
    const attackerPid = Number(await truth(attacker.paneId, '#{pane_pid}'));
    const victimPid = Number(await truth(victim.paneId, '#{pane_pid}'));
    const attackerDir = await truth(attacker.paneId, '#{pane_current_path}');
    expect(attackerDir).toContain('\n');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path));

    // Wait until the bridge has read the attacker's pane, as itself or (before the fix) as the victim.
    await until(bridge.hub, 'the attacker read', (h) => [...h.panes.values()].some((p) => p.tmuxId === attacker.paneId || (p.tmuxId === victim.paneId && p.pid === attackerPid)), 30_000);
    const V = await paneOf(bridge, victim.paneId, idle);
    const who = await attacker.collie(['walky', 'who', '--json']);
    expect(who.code, who.err).toBe(0);
    expect((JSON.parse(who.out) as { you: string }).you).not.toBe(V.address);

    const A = await paneOf(bridge, attacker.paneId, idle);
    expect(A.cwd).toBe(attackerDir);
    expect((JSON.parse(who.out) as { you: string }).you).toBe(A.address);
    const panes = [...bridge.hub.panes.values()];
    expect(panes.filter((p) => p.tmuxId === victim.paneId).map((p) => p.pid)).toEqual([victimPid]);
    expect(panes.filter((p) => p.tmuxId === attacker.paneId).map((p) => p.pid)).toEqual([attackerPid]);
    expect(panes.some((p) => p.cwd === '/forged')).toBe(false);
    for (const [id, folder] of Object.entries(lone)) await until(bridge.hub, `pane ${id} in ${JSON.stringify(folder)}`, (h) => [...h.panes.values()].find((p) => p.tmuxId === id && p.cwd === folder), 30_000);

    // A message to the victim is not the attacker's to read, and the attacker's sends are its own.
    const S = await paneOf(bridge, sender.paneId, idle);
    const sent = await sender.collie(['walky', 'send', V.address, 'for the victim only']);
    expect(sent.code, sent.out + sent.err).toBe(0);
    const id = sent.out.trim().split('\n')[0]!;
    expect(await attacker.collie(['walky', 'inbox', id])).toMatchObject({ code: 3, err: `no message ${id} for this pane\n` });
    const fromAttacker = await attacker.collie(['walky', 'send', '--json', S.address, 'who am I']);
    expect(fromAttacker.code, fromAttacker.out + fromAttacker.err).toBe(0);
    expect(JSON.parse(fromAttacker.out)).toMatchObject({ from: { address: A.address } });
  }, 120_000);
});
