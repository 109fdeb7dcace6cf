import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTmux, type TmuxServer } from '@collie/testkit';
import { ControlClient } from '../src/mux/tmux/control-client';

/**
 * A batch of tmux commands (`ControlClient.commands`) is the send protocol's fence: a paste
 * and input off, input on and Enter. No other client's keys may come between its commands,
 * whatever the size of the batch, and a failed command must not leave the replies out of step.
 */
describe('a batch of tmux commands through control mode', () => {
  let tmux: TmuxServer;
  let client: ControlClient;
  let pane: string;
  let out: string;

  beforeAll(async () => {
    tmux = await startTmux();
    out = join(tmux.tmpDir, 'keys.txt');
    // Raw mode: every byte the pane is sent lands in the file as it came, no line editing.
    pane = await tmux.newSession('batch', { cmd: `stty raw -echo; cat > ${out}` });
    client = new ControlClient(tmux.socketPath, 'batch', tmux.env);
    await client.ready;
  });

  afterAll(async () => {
    client?.close();
    await tmux?.kill();
  });

  it('runs as one: keys another client sends meanwhile come before or after it, never inside', async () => {
    const N = 3000; // one command line of ~80 kB: more than one read of tmux's input
    const batch = Array.from({ length: N }, () => ['send-keys', '-t', pane, '-l', 'a']);
    const done = client.commands(batch);
    const others = Array.from({ length: 20 }, () =>
      new Promise<void>((resolve) => spawn('tmux', ['-S', tmux.socketPath, 'send-keys', '-t', pane, '-l', 'Z'], { env: tmux.env }).on('exit', () => resolve())),
    );
    await Promise.all([done, ...others]);
    await expect.poll(async () => (await readFile(out, 'utf8')).length, { timeout: 10_000 }).toBe(N + 20);
    const got = await readFile(out, 'utf8');
    expect(got.replace(/Z/g, '')).toBe('a'.repeat(N));
    expect(got, 'keys from another client inside the batch').toMatch(/^Z*a+Z*$/);
  }, 60_000);

  it('a failed command: it and the rest of its batch fail, and the next command gets its own answer', async () => {
    const batch = client.commands([
      ['display-message', '-p', 'first'],
      ['select-pane', '-t', '%999'],
      ['display-message', '-p', 'third'],
    ]);
    await expect(batch).rejects.toThrow(/'select-pane -t %999' failed: can't find pane/);
    expect(await client.command(['display-message', '-p', 'next'])).toEqual(['next']);
    expect(await client.commands([['display-message', '-p', 'x'], ['display-message', '-p', 'y']])).toEqual([['x'], ['y']]);
  });
});
