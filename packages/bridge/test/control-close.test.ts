import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startTmux, type TmuxServer } from '@collie/testkit';
import { ControlClient } from '../src/mux/tmux/control-client';

/**
 * A bridge that stops closes its control clients while the panes go on drawing. tmux 3.3a ends
 * the whole server, every pane with it, with `fatal: not enough data` when a control client that
 * detaches (an empty line, or the end of its input, which a killed `tmux` process brings too)
 * still has `%output` queued and the same turn of tmux's loop reads a pane and finds that
 * client's pipe writable: the pane's offset jumps past the queued block, and writing the block
 * then finds nothing to write (tmux 3.3a control.c, control_append_data). The soak's hour met it
 * three times at a bridge's SIGTERM restart; this brings the same order about in seconds: many
 * clients that read late, on panes that draw. An empty line ends the server within a few rounds
 * here, a SIGTERM to the client within a few dozen.
 */

/** Seeded, so a failing run can be run again the same way. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Holds this process as a bridge busy elsewhere is held: nothing sent to it is read meanwhile. */
function busy(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The server's pid, while it answers. */
async function answering(tmux: TmuxServer): Promise<number | null> {
  return tmux.tmux('display-message', '-p', '#{pid}').then((out) => Number(out.trim()), () => null);
}

describe('closing control clients while panes draw', () => {
  it('never ends the tmux server', async () => {
    await using tmux = await startTmux();
    const draw = 'while :; do head -c 3000 /dev/urandom | base64; sleep 0.0$((RANDOM % 10)); done';
    await tmux.newSession('draw', { cmd: draw, width: 120, height: 40 });
    for (let i = 0; i < 7; i++) await tmux.newWindow('draw', { cmd: draw });
    // A second session, with its own client as the bridge has one a session: tmux then never
    // holds the drawing panes back for the slow clients, so their output queues up.
    await tmux.newSession('quiet', { cmd: 'sleep 600' });
    for (let i = 0; i < 10; i++) await tmux.newWindow('quiet', { cmd: 'sleep 600' });
    // A server with much to read: each turn of its loop then finds more ready at once.
    const seq = 'while :; do seq 1 20000; done';
    await tmux.newSession('load', { cmd: seq });
    for (let i = 0; i < 11; i++) await tmux.newWindow('load', { cmd: seq });
    const quiet = new ControlClient(tmux.socketPath, 'quiet', tmux.env);
    await quiet.ready;
    const server = await answering(tmux);
    const next = random(2026);
    let rounds = 0;
    try {
      for (; rounds < 24 && (await answering(tmux)) === server; rounds++) {
        const clients = Array.from({ length: 4 }, () => new ControlClient(tmux.socketPath, 'draw', tmux.env));
        const ends = clients.map((c) => once(c, 'exit'));
        // A server that ended meanwhile refuses them: the check below says so.
        if ((await Promise.allSettled(clients.map((c) => c.ready))).some((r) => r.status === 'rejected')) break;
        // Windows come and go, as they do on a person's server: the order in which tmux looks
        // at what it waits on changes with them.
        await tmux.tmux(...(next() < 0.5 ? ['new-window', '-d', '-t', 'quiet:', 'sleep 600'] : ['kill-window', '-t', 'quiet:{end}'])).catch(() => undefined);
        // A bridge busy elsewhere reads late, in bursts: its pipes from tmux fill and drain at
        // times of their own, and each client is closed somewhere in between.
        const open = [...clients];
        while (open.length > 0) {
          busy(next() * 15);
          await new Promise((resolve) => setImmediate(resolve));
          if (next() < 0.15) open.shift()!.close();
        }
        await Promise.all(ends);
      }
      expect({ rounds, server: await answering(tmux) }).toEqual({ rounds: 24, server });
    } finally {
      quiet.close();
    }
  }, 120_000);
});
