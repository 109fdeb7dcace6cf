import { access, chmod, mkdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import { startBridge } from '../src/bridge';
import { walkyChecks } from '../src/commands/doctor-walky';
import { loadConfig } from '../src/config';
import { runCli, walkyEnv } from './walky/kit';

const UNPROVED = 'the bridge cannot prove which pane calls, and answers every collie walky call not_proved';
const row = (out: string) => out.split('\n').filter((l) => /^\S+\s+walky-proof\s/.test(l));

/** Where ss really is on this machine: the first folder of `PATH`, then of the usual bin and sbin folders, holding it. */
async function realSs(path = process.env.PATH ?? ''): Promise<string> {
  for (const d of [...path.split(delimiter).filter(Boolean), '/usr/bin', '/bin', '/usr/sbin', '/sbin']) {
    if (await access(join(d, 'ss')).then(() => true, () => false)) return join(d, 'ss');
  }
  throw new Error('this test needs ss (iproute2) installed');
}

describe.skipIf(process.platform !== 'linux')('collie doctor: the walky-proof row (the proof of the calling pane, made end to end)', () => {
  it('is ok when the proof works here, and names the ss it used', async () => {
    await using state = await tempDir('collie-walky-doctor');
    const r = await runCli(['doctor'], walkyEnv(state.path));
    expect(row(r.out)).toEqual([`ok    walky-proof       the bridge proves which pane calls: a test connection was proved with ${await realSs()}`]);
  });

  it('fails with the reason when ss is there but the proof does not work, and the bridge then answers every call not_proved', async () => {
    await using state = await tempDir('collie-walky-doctor');
    // An ss that cannot read the socket table (as a broken or foreign ss would), first on PATH.
    const bin = join(state.path, 'broken-bin');
    await mkdir(bin);
    await writeFile(join(bin, 'ss'), '#!/bin/sh\necho "ss: cannot open netlink socket" >&2\nexit 1\n');
    await chmod(join(bin, 'ss'), 0o755);
    const PATH = `${bin}${delimiter}${process.env.PATH ?? ''}`;
    const env = { ...walkyEnv(state.path), PATH };
    const r = await runCli(['doctor'], env);
    expect(r.code).toBe(1);
    expect(row(r.out)).toEqual([`FAIL  walky-proof       a test connection was not proved (cannot prove the calling pane: ss failed): ${UNPROVED}`]);

    // What the row says is what the bridge does with that ss: every call not_proved, with the same reason.
    await using tmux = await startTmux();
    const saved = process.env.PATH;
    process.env.PATH = PATH;
    let bridge: Awaited<ReturnType<typeof startBridge>>;
    try {
      bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path));
    } finally {
      process.env.PATH = saved;
    }
    await using _ = bridge;
    const who = await runCli(['walky', 'who'], walkyEnv(state.path));
    expect(who.code).toBe(4);
    expect(who.err + who.out).toContain('walky: cannot prove the calling pane: ss failed');
  });

  it('fails when ss is nowhere: on PATH nor in the folders the bridge looks in', async () => {
    await using state = await tempDir('collie-walky-doctor');
    await mkdir(join(state.path, 'empty-bin'));
    const env = { ...process.env, ...walkyEnv(state.path), PATH: join(state.path, 'empty-bin') };
    const loaded = loadConfig(env);
    if (!loaded.ok) throw new Error(loaded.errors.join('; '));
    const proof = (await walkyChecks(loaded.config, env, [])).filter((c) => c.name === 'walky-proof');
    expect(proof).toEqual([{ name: 'walky-proof', ok: false, detail: `ss (iproute2) is not installed: ${UNPROVED}` }]);
    // With the real folders searched again, the same environment is proved.
    const found = (await walkyChecks(loaded.config, env)).filter((c) => c.name === 'walky-proof');
    expect(found).toEqual([{ name: 'walky-proof', ok: true, detail: `the bridge proves which pane calls: a test connection was proved with ${await realSs('')}` }]);
  });
});
