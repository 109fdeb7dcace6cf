/**
 * A bridge killed with -9 must not hold the agents up. tmux stops reading a pane whose only
 * clients are control clients that do not read, and the agent in it then blocks at its next
 * draw. tmux 3.3a keeps the client of a bridge killed while behind attached for good (it waits
 * for output that can no longer be written), so the agents in a session no terminal shows
 * stayed stopped until the next bridge ended that client (a CI run: Claude Code never drew its
 * reply after the bridge was killed). The client now dies with its bridge (`setpriv
 * --pdeathsig`). Clients also attach with `pause-after`: tmux pauses a pane for a client that
 * far behind, and the bridge goes on with it and reads it anew.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Snapshot } from '@collie/protocol';
import { PAUSE_AFTER_S } from '../src/mux/tmux/control-client';
import { bridgeProcess, claudePaneReady } from './bridge-process';
import { standInWorld } from './stand-in-rig';
import { EventsClient } from './ws-client';

/** Prints 8 KB every 5 ms, counting each round in $COUNT; while $STOP exists, it has cleared the screen, said DONE and waits. */
const FLOOD = `
const fs = require('node:fs');
const line = 'x'.repeat(2000) + '\\n';
let n = 0;
let done = false;
setInterval(() => {
  if (fs.existsSync(process.env.STOP)) {
    if (!done) process.stdout.write('\\x1b[2J\\x1b[HDONE ' + n + '\\n');
    done = true;
    return;
  }
  done = false;
  process.stdout.write(line.repeat(4));
  // Whole or not at all: a read never finds the file half written.
  fs.writeFileSync(process.env.COUNT + '.new', String(++n));
  fs.renameSync(process.env.COUNT + '.new', process.env.COUNT);
}, 5);
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a pane tmux pauses for the bridge, and a bridge killed while behind', () => {
  it('the bridge goes on with a paused pane and reads it anew; killed, it holds no pane', async () => {
    await using world = await standInWorld('collie-pause');
    const { tmux, work, env, auth, pane: agent, control } = world;
    const count = join(work.path, 'count');
    const stop = join(work.path, 'stop');
    const flood = await tmux.newSession('flood', { cmd: [process.execPath, '-e', FLOOD], env: { COUNT: count, STOP: stop } });
    const rounds = () => (existsSync(count) ? Number(readFileSync(count, 'utf8')) || 0 : 0);
    /** How many rounds the flooding pane printed in `ms`. */
    const drawn = async (ms: number) => {
      const from = rounds();
      await sleep(ms);
      return rounds() - from;
    };

    const bridge = await bridgeProcess(env);
    const exited = new Promise((r) => bridge.child.once('exit', r));
    let events: EventsClient | null = null;
    try {
      await claudePaneReady(bridge.url, auth, agent);
      const floodId = `${tmux.name}:${flood}`;
      events = new EventsClient(`${bridge.url}/api/events?since=0`, auth);
      await events.opened;
      events.send({ type: 'screen.subscribe', id: floodId });
      await events.next('a frame of the flooding pane', (m) => m.type === 'pane.screen' && m.id === floodId);
      expect(await drawn(1000)).toBeGreaterThan(0);

      // tmux pauses the pane for the bridge's client, as it does for a client PAUSE_AFTER_S
      // behind: the bridge goes on with it, and its last screen reaches the phone.
      const client = (await tmux.tmux('list-clients', '-t', 'flood', '-F', '#{client_name}')).trim();
      expect(client).not.toBe('');
      expect(await tmux.tmux('list-clients', '-t', 'flood', '-F', '#{client_flags}')).toContain(`pause-after=${PAUSE_AFTER_S}`);
      // tmux has paused it once the command returns: what the pane draws from now on is not sent.
      // The second lets the bridge finish reading what came before the pause, so the last screen
      // can reach the phone only through the bridge going on with the pane (without that wait,
      // a read scheduled by the output before the pause found DONE on its own).
      await tmux.tmux('refresh-client', '-t', client, '-A', `${flood}:pause`);
      await sleep(1000);
      writeFileSync(stop, '');
      await events.next('the flooding pane’s last screen', (m) => m.type === 'pane.screen' && m.id === floodId && m.lines.some((l) => l.startsWith('DONE ')), 15_000);
      events.ws.close();
      events = null;

      // Held up (its reader stopped), the bridge holds the pane: tmux stops reading a pane whose
      // only clients are control clients that do not read. Killed with -9 then, it holds it no
      // longer: its client ends with it, and the pane draws on with no bridge running.
      rmSync(stop);
      await expect.poll(() => drawn(300), { timeout: 5_000 }).toBeGreaterThan(0);
      bridge.child.kill('SIGSTOP');
      await sleep(2000);
      bridge.child.kill('SIGKILL');
      await exited;
      await sleep(500);
      expect(await drawn(2000)).toBeGreaterThan(0);
      // And a dialog the agent opens is read by the next bridge as it always was.
      await control('dialog');
      const next = await bridgeProcess(env);
      try {
        await expect
          .poll(async () => Snapshot.parse(await (await fetch(`${next.url}/api/snapshot`, { headers: auth })).json()).panes.find((p) => p.tmuxId === agent)?.state, { timeout: 15_000 })
          .toBe('blocked');
      } finally {
        next.child.kill('SIGTERM');
        await new Promise((r) => next.child.once('exit', r));
      }
    } finally {
      events?.ws.close();
      bridge.child.kill('SIGCONT');
      bridge.child.kill('SIGKILL');
      await exited;
    }
  }, 120_000);
});
