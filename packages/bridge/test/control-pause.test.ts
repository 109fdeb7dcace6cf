/**
 * A bridge that is held up must not hold the agents up. tmux stops reading a pane whose only
 * clients are control clients that do not read, and the agent in it then blocks on its next
 * draw. A bridge stopped for a while (its loop stuck, a debugger, `SIGSTOP`) held every agent in
 * a session no terminal shows; and a bridge killed with -9 while behind left its control
 * client to tmux 3.3a, which keeps it attached with its output unwritten, so those agents
 * stayed held until the next bridge ended it (a CI run: Claude Code never drew its reply after
 * the bridge was killed). The clients now attach with `pause-after`: tmux pauses a pane for a
 * client that is that far behind, and the bridge, once it reads again, goes on with the pane
 * and reads it anew.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Snapshot } from '@collie/protocol';
import { startTmux, tempDir, testDevice } from '@collie/testkit';
import { PAUSE_AFTER_S } from '../src/mux/tmux/control-client';
import { bridgeProcess, claudePaneReady } from './bridge-process';
import { standIn } from './stand-in-rig';
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
  fs.writeFileSync(process.env.COUNT, String(++n));
}, 5);
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a bridge held up or killed while behind', () => {
  it('holds no pane: the agents draw on, and the bridge reads a paused pane anew once it runs again', async () => {
    await using tmux = await startTmux();
    await using work = await tempDir('collie-pause');
    await using state = await tempDir('collie-state');
    const env = { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_STATE_DIR: state.path, COLLIE_CONFIG_DIR: join(state.path, 'config'), COLLIE_NO_SYSTEMD: '1' };
    const auth = (await testDevice(state.path)).headers;
    const fifo = join(work.path, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const agent = await tmux.newSession('agent', { cmd: [process.execPath, standIn], env: { SOAK_FIFO: fifo, SOAK_LOG: join(work.path, 'log.jsonl') } });
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

      // The bridge held longer than tmux lets a client fall behind: the pane goes on drawing.
      bridge.child.kill('SIGSTOP');
      await sleep((PAUSE_AFTER_S + 3) * 1000);
      expect(await drawn(1500)).toBeGreaterThan(0);

      // Running again, the bridge goes on with the pane tmux paused for it and reads it anew:
      // its last screen reaches the phone.
      bridge.child.kill('SIGCONT');
      // What it drew while the bridge was held is read first; the last screen comes after that.
      await fetch(`${bridge.url}/api/health`);
      await sleep(2000);
      writeFileSync(stop, '');
      await events.next('the flooding pane’s last screen', (m) => m.type === 'pane.screen' && m.id === floodId && m.lines.some((l) => l.startsWith('DONE ')), 20_000);
      // And it reads the other panes as before: a dialog opened now is a card.
      writeFileSync(fifo, 'dialog\n');
      await expect
        .poll(async () => Snapshot.parse(await (await fetch(`${bridge.url}/api/snapshot`, { headers: auth })).json()).panes.find((p) => p.tmuxId === agent)?.state, { timeout: 15_000 })
        .toBe('blocked');
      events.ws.close();
      events = null;

      // Killed with -9 while behind: no pane is held with no bridge running.
      rmSync(stop);
      await expect.poll(() => drawn(300), { timeout: 5_000 }).toBeGreaterThan(0);
      bridge.child.kill('SIGSTOP');
      await sleep((PAUSE_AFTER_S + 3) * 1000);
      bridge.child.kill('SIGKILL');
      await exited;
      await sleep(500);
      expect(await drawn(2000)).toBeGreaterThan(0);
    } finally {
      events?.ws.close();
      bridge.child.kill('SIGCONT');
      bridge.child.kill('SIGKILL');
      await exited;
    }
  }, 120_000);
});
