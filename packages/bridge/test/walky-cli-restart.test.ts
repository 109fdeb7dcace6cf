import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WalkyAnswer } from '@collie/protocol';
import { startTmux, tempDir } from '@collie/testkit';
import { bridgeProcess } from './bridge-process';
import { fakePane } from './walky/fake-pane';
import { CLI, runCli, walkyEnv } from './walky/kit';

const killed = (c: ChildProcess) => (c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise((r) => (c.once('exit', r), c.kill('SIGKILL'))));

/** The messages the bridge's log holds with `body`, by id. */
async function logged(state: string, body: string): Promise<string[]> {
  const text = await readFile(join(state, 'walky', 'log.jsonl'), 'utf8').catch(() => '');
  const ids = text
    .split('\n')
    .filter((l) => l.includes(body))
    .map((l) => (JSON.parse(l) as { m?: { id?: string } }).m?.id ?? '');
  return [...new Set(ids)];
}

/** The busy target's address, once `who` lists it working. */
async function busyAddress(env: Record<string, string>, paneId: string): Promise<string> {
  for (const deadline = Date.now() + 30_000; ; ) {
    const who = await runCli(['walky', 'who', '--json'], env);
    const a = who.code === 0 ? WalkyAnswer.parse(JSON.parse(who.out)) : null;
    const address = a?.verb === 'who' ? a.panes.find((p) => p.address.includes(`:${paneId}#`) && p.state === 'working')?.address : undefined;
    if (address) return address;
    if (Date.now() > deadline) throw new Error(`the busy target never showed in who: ${who.out}${who.err}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A sender pane, a busy target (a message to it waits, queued, and a send waits up to 15 s with
 * it), and the built bridge, killed and started again at will.
 */
async function restartRig(name: string) {
  const tmux = await startTmux();
  const state = await tempDir(name);
  const env = walkyEnv(state.path);
  const procEnv = { ...process.env, TMUX_TMPDIR: tmux.tmpDir, ...env };
  let bridge: ChildProcess | null = null;
  const rig = {
    env,
    logged: (body: string) => logged(state.path, body),
    bridge: () => bridge!,
    start: async () => void (bridge = (await bridgeProcess(procEnv, CLI)).child),
    kill: () => (bridge ? killed(bridge) : Promise.resolve()),
    /** Killed and started again while `sending` waits: the send's answer, no failure, and the one id logged. */
    async restarted(sending: Promise<{ out: string; err: string; code: number | null }>, body: string) {
      await rig.kill();
      await rig.start();
      const sent = await sending;
      const [id] = await rig.logged(body);
      expect(sent.err).toBe('');
      expect(sent.code).toBe(0);
      return { sent, id: id! };
    },
    async [Symbol.asyncDispose]() {
      await rig.kill();
      await state[Symbol.asyncDispose]();
      await tmux[Symbol.asyncDispose]();
    },
  };
  try {
    const sender = await fakePane(tmux, state.path, 'sender', 'fresh-idle', env);
    const target = await fakePane(tmux, state.path, 'target', 'working', env);
    await rig.start();
    return { ...rig, sender, address: await busyAddress(env, target.paneId) };
  } catch (err) {
    await rig[Symbol.asyncDispose]();
    throw err;
  }
}

describe('collie walky send across a restart of the bridge', () => {
  it('a send waiting on a busy pane when the bridge is killed asks again under the same id once it is back: one message, no false failure', async () => {
    await using r = await restartRig('collie-walky-cli-restart');
    const body = 'once across a restart';
    const sending = r.sender.collie(['walky', 'send', r.address, body]);
    // The bridge has the message (its receipt is written before anything is typed): killed now.
    await expect.poll(() => r.logged(body), { timeout: 15_000, interval: 50 }).toHaveLength(1);
    // The same id, answered by the bridge that came back: its receipt, not a failure.
    const { sent, id } = await r.restarted(sending, body);
    expect(sent.out.split('\n')[0]).toBe(id);
    expect(await r.logged(body)).toEqual([id]);
    const status = await runCli(['walky', 'status', id], r.env);
    expect(status.code).toBe(0);
    expect(status.out.split('\n')[0]).toBe(id);

    // Killed again, and not started: after the send's whole wait, the sender is told the id to check.
    const again = 'the bridge does not come back';
    const waiting = r.sender.collie(['walky', 'send', r.address, again]);
    await expect.poll(() => r.logged(again), { timeout: 15_000, interval: 50 }).toHaveLength(1);
    await r.kill();
    const lost = await waiting;
    const [other] = await r.logged(again);
    expect(lost.code).toBe(1);
    expect(lost.err).toBe(`collie walky: the bridge stopped before it answered and was not back within 25 s\nthe message may have been taken: ${other}\ncheck later: collie walky status ${other}\n`);
  }, 120_000);

  // The soak's restarts: a bridge that comes back late, after most of the send's wait, takes the
  // message anew, and would wait its own 15 s on a busy pane, past the sender's 25 s. Asked again,
  // the request says how long the sender still waits, and the bridge answers with the receipt it
  // has by then: queued, check later. A bridge stopped with SIGSTOP holds the connection without
  // taking the message (as one still starting does), then is killed.
  it('a send asked again late is answered within its wait: queued, check later, exit 0', async () => {
    await using r = await restartRig('collie-walky-cli-late');
    const body = 'asked again late';
    r.bridge().kill('SIGSTOP');
    const sending = r.sender.collie(['walky', 'send', r.address, body]);
    await new Promise((res) => setTimeout(res, 12_000));
    expect(await r.logged(body)).toEqual([]);
    const { sent, id } = await r.restarted(sending, body);
    const lines = sent.out.split('\n');
    expect([lines[0], lines[2], lines[3]]).toEqual([id, 'queued', `check later: collie walky status ${id}`]);
  }, 120_000);

  it('a bridge that is not running is said at once', async () => {
    await using state = await tempDir('collie-walky-cli-gone');
    const env = walkyEnv(state.path);
    const t = Date.now();
    const none = await runCli(['walky', 'send', 'local/work:%1#ab12', 'hello'], env);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/^collie walky: the bridge is not running \(no socket at .*walky\/sock\): start it with collie start\n$/);
    expect(Date.now() - t).toBeLessThan(10_000);
  });
});
