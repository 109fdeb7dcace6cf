/**
 * A bridge killed with -9 has its descriptors closed by the kernel one after another. Were a
 * control client's input and output two sockets, tmux could read the end of the input, mark the
 * client exiting, and still write that client's queued `%output` to an output that had a reader
 * for a moment longer: tmux 3.3a then exits with `fatal: not enough data`, every pane with it
 * (control-client.ts, oneSocket; control-close.test.ts has the same order brought about by a
 * detach). The client's input and output are one socket, so they end together.
 */
import { readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startTmux } from '@collie/testkit';
import { ControlClient } from '../src/mux/tmux/control-client';

describe('a control client', () => {
  it('has its input and its output on one socket, and still answers and detaches', async () => {
    await using tmux = await startTmux();
    await tmux.newSession('work', { cmd: 'cat' });
    const client = new ControlClient(tmux.socketPath, 'work', tmux.env);
    await client.ready;
    try {
      const pids = (await client.command(['list-clients', '-F', '#{client_pid} #{client_control_mode}'])).map((l) => l.split(' '));
      const [pid] = pids.find(([, control]) => control === '1') ?? [];
      expect(pid).toBeDefined();
      // The tmux client process itself (sh made fd 0 a copy of fd 1, then exec'd it).
      expect(readlinkSync(`/proc/${pid}/exe`)).toMatch(/\/tmux$/);
      const input = readlinkSync(`/proc/${pid}/fd/0`);
      expect(input).toMatch(/^socket:\[\d+\]$/);
      expect(readlinkSync(`/proc/${pid}/fd/1`)).toBe(input);
      expect(await client.command(['display-message', '-p', 'ok'])).toEqual(['ok']);
      expect(await client.commands([['display-message', '-p', 'one'], ['display-message', '-p', 'two']])).toEqual([['one'], ['two']]);
    } finally {
      const exit = new Promise<string>((resolve) => client.once('exit', resolve));
      client.close();
      expect(await exit).toBe('detached');
    }
  });
});
