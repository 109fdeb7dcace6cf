import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import { startBridge } from '../src/bridge';
import { fakePane } from './walky/fake-pane';
import { paneOf, runCli, walkyEnv } from './walky/kit';

const idle = (p: { harness: string; state: string }) => p.harness === 'claude' && (p.state === 'idle' || p.state === 'done');
const read = (path: string) => readFile(path, 'utf8').catch(() => '');

describe('COLLIE_INSTANCE picks the instance collie walky reaches', () => {
  it('two instances on one machine: each call goes to the socket of the instance it names, and only there', async () => {
    await using state = await tempDir('collie-walky-instances');
    const env = walkyEnv(state.path);
    const dirA = state.path;
    const dirB = join(state.path, 'instances', 'b');
    await mkdir(dirB, { recursive: true, mode: 0o700 });
    // Two instances, each with its own tmux server and panes.
    await using tmuxA = await startTmux();
    await using tmuxB = await startTmux();
    const a1 = await fakePane(tmuxA, state.path, 'a-one', 'fresh-idle', env);
    const b1 = await fakePane(tmuxB, state.path, 'b-one', 'fresh-idle', env);
    const b2 = await fakePane(tmuxB, state.path, 'b-two', 'fresh-idle', env);
    await using bridgeA = await startBridge(testBridgeOptions(tmuxA.tmpDir, dirA));
    await using bridgeB = await startBridge(testBridgeOptions(tmuxB.tmpDir, dirB));
    const A1 = await paneOf(bridgeA, a1.paneId, idle);
    const B1 = await paneOf(bridgeB, b1.paneId, idle);
    const B2 = await paneOf(bridgeB, b2.paneId, idle);
    const who = async (pane: typeof a1, instance?: string) => {
      const r = await pane.collie(['walky', 'who', '--json'], instance ? { env: { COLLIE_INSTANCE: instance } } : {});
      expect(r.code, r.err).toBe(0);
      const a = JSON.parse(r.out) as { you: string | null; panes: { address: string }[] };
      return { you: a.you, panes: a.panes.map((p) => p.address) };
    };

    // No instance named: the default instance's socket, its panes; `default` names it too.
    expect(await who(a1)).toEqual({ you: A1.address, panes: [A1.address] });
    expect(await who(a1, 'default')).toEqual({ you: A1.address, panes: [A1.address] });
    // COLLIE_INSTANCE=b from the same pane: instance b's panes, and this pane is not one of them.
    expect(await who(a1, 'b')).toEqual({ you: null, panes: [B1.address, B2.address].sort((x, y) => x.localeCompare(y, 'en', { numeric: true })) });
    expect(await who(b1, 'b')).toMatchObject({ you: B1.address });

    // A send between instance b's panes, with COLLIE_INSTANCE=b as the skill pins it: in b's log only.
    const sent = await b1.collie(['walky', 'send', B2.address, 'to b-two, inside instance b'], { env: { COLLIE_INSTANCE: 'b' } });
    expect(sent.code, sent.out + sent.err).toBe(0);
    const id = sent.out.split('\n')[0]!;
    expect(sent.out.split('\n')[1]).toBe(`to ${B2.address}, claude, ${B2.label}`);
    expect(await read(join(dirB, 'walky', 'log.jsonl'))).toContain(id);
    expect(await read(join(dirA, 'walky', 'log.jsonl'))).not.toContain(id);
    expect(await b2.collie(['walky', 'inbox', id], { env: { COLLIE_INSTANCE: 'b' } })).toMatchObject({ code: 0 });

    // The same send without the instance reaches the default instance, where b-one is no pane of its own.
    const wrong = await b1.collie(['walky', 'send', B2.address, 'lost']);
    expect(wrong.code).toBe(4);
    expect(wrong.out.split('\n')[2]).toBe('not sent: run this inside a pane, or send from the phone');
    expect(await read(join(dirA, 'walky', 'refusals.json'))).toContain('run this inside a pane');
    expect(await read(join(dirB, 'walky', 'refusals.json'))).not.toContain('run this inside a pane');
    // The status of b's message is known in b, not in the default instance.
    expect(await runCli(['walky', 'status', id], { ...env, COLLIE_INSTANCE: 'b' })).toMatchObject({ code: 0 });
    expect(await runCli(['walky', 'status', id], env)).toMatchObject({ code: 3, err: `no record of ${id} on this machine\n` });

    // An instance with no bridge, and a name that is not one: clear words, exit 1.
    const none = await runCli(['walky', 'who'], { ...env, COLLIE_INSTANCE: 'c' });
    expect(none).toMatchObject({ code: 1, err: `collie walky: the bridge is not running (no socket at ${join(state.path, 'instances', 'c', 'walky', 'sock')}): start it with collie start\n` });
    const bad = await runCli(['walky', 'who'], { ...env, COLLIE_INSTANCE: '../a' });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('COLLIE_INSTANCE: "../a" is not an instance name');
  }, 180_000);
});
