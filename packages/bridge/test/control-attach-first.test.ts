/**
 * tmux starts reading a control client's input as soon as the client has said who it is, and
 * runs the client's own command (`attach-session`) only when its next message arrives: a line
 * written at once can run before the attach, with no session (seen in 3 of 4 starts here). A
 * command the bridge sends first (`list-clients` in control-one-socket.test.ts failed in a full
 * run under load, our client not yet listed) must run with the client attached, so a client
 * writes nothing until tmux has answered its attach.
 */
import { describe, expect, it } from 'vitest';
import { startTmux } from '@collie/testkit';
import { ControlClient } from '../src/mux/tmux/control-client';

describe('a control client', () => {
  it('runs its first command with its session attached, even one written before it is ready', async () => {
    await using tmux = await startTmux();
    await tmux.newSession('work', { cmd: 'cat' });
    for (let i = 0; i < 12; i++) {
      const client = new ControlClient(tmux.socketPath, 'work', tmux.env);
      try {
        const first = client.command(['display-message', '-p', '[#{client_session}]']);
        const batch = client.commands([['display-message', '-p', '[#{client_session}]'], ['display-message', '-p', 'two']]);
        expect(await first).toEqual(['[work]']);
        expect(await batch).toEqual([['[work]'], ['two']]);
        await client.ready;
      } finally {
        const exit = new Promise<string>((resolve) => client.once('exit', resolve));
        client.close();
        expect(await exit).toBe('detached');
      }
    }
  });

  it('fails its commands with tmux’s reason when the session is not there', async () => {
    await using tmux = await startTmux();
    await tmux.newSession('work', { cmd: 'cat' });
    const client = new ControlClient(tmux.socketPath, 'nowhere', tmux.env);
    const first = client.command(['display-message', '-p', 'x']);
    await expect(first).rejects.toThrow(/can't find session|nowhere/);
    await expect(client.ready).rejects.toThrow(/nowhere|can't find session/);
  });
});
