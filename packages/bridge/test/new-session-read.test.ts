/**
 * A new session's panes can draw before the bridge's control client of that session is attached:
 * tmux sends that output to nobody. The bridge reads them again once it is attached, so an agent
 * that drew its screen once and then waits is not read as a blank screen (`unknown`) for good.
 * Found by the churn measure (churn-memory.test.ts): under load, the first pane of a new session
 * of stand-in agents read `unknown` for good, its last read a blank screen. And the bridge waits
 * for sessions made back to back to stop before it attaches to them (tmux 3.3a crashes else).
 */
import { describe, expect, it } from 'vitest';
import { until } from './harness';
import { liveDesk } from './live-rig';
import { standIn } from './stand-in-rig';

const SESSIONS = 12;

describe('the first read of a new session', () => {
  it('reads every new session’s agent idle', async () => {
    await using desk = await liveDesk('collie-new-session');
    await desk.tmux.newSession('base', { cmd: 'cat' });
    const bridge = await desk.startBridge();
    const ids: string[] = [];
    // One after another, each drawing about as the bridge notices its session and attaches to it.
    for (let i = 0; i < SESSIONS; i++) {
      const id = `${desk.tmux.name}:${await desk.tmux.newSession(`agents-${i}`, { cmd: [process.execPath, standIn] })}`;
      ids.push(id);
      await until(bridge.hub, `session ${i} noticed`, (h) => h.panes.has(id), 30_000);
    }
    // And back to back, as a script makes them.
    for (let i = 0; i < SESSIONS; i++) ids.push(`${desk.tmux.name}:${await desk.tmux.newSession(`burst-${i}`, { cmd: [process.execPath, standIn] })}`);
    await until(bridge.hub, 'every stand-in idle', (h) => ids.every((id) => h.panes.get(id)?.state === 'idle'), 60_000).catch((err: Error) => {
      throw new Error(`${err.message}\nnot idle: ${JSON.stringify(ids.filter((id) => bridge.hub.panes.get(id)?.state !== 'idle').map((id) => [id, bridge.hub.panes.get(id)?.harness, bridge.hub.panes.get(id)?.state]))}`);
    });
    expect(ids.map((id) => bridge.hub.panes.get(id)?.harness)).toEqual(ids.map(() => 'claude'));
  });

  // The bridge attaches a new session's client only once sessions stop coming (below). Its
  // agent is read meanwhile all the same, through the clients already attached.
  it('reads a new session’s agent while sessions keep coming and its client waits', async () => {
    await using desk = await liveDesk('collie-session-waiting');
    await desk.tmux.newSession('base', { cmd: 'cat' });
    const bridge = await desk.startBridge();
    const id = `${desk.tmux.name}:${await desk.tmux.newSession('agent', { cmd: [process.execPath, standIn] })}`;
    let more = 0;
    let making = true;
    // A session every 100 ms or so: never the quiet second the bridge waits for.
    const maker = (async () => {
      while (making && more < 200) {
        await desk.tmux.newSession(`more-${more++}`, { cmd: 'cat' });
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    try {
      await until(bridge.hub, 'the agent read idle', (h) => h.panes.get(id)?.state === 'idle', 20_000);
      const clients = (await desk.tmux.tmux('list-clients', '-F', '#{session_name}')).trim().split('\n');
      expect(clients).not.toContain('agent');
      expect(clients).toContain('base');
    } finally {
      making = false;
      await maker;
    }
  });

  // tmux 3.3a's server crashes (a NULL read in its session-created notification) when a session
  // is made while a control client is attaching: with a client attached at once for each new
  // session, 7 of 8 bursts of 12 sessions killed the server here, with every pane in it.
  it('sessions made back to back while the bridge follows leave the tmux server running', async () => {
    await using desk = await liveDesk('collie-session-burst');
    await desk.tmux.newSession('base', { cmd: 'cat' });
    const bridge = await desk.startBridge();
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < SESSIONS; i++) await desk.tmux.newSession(`r${round}-${i}`, { cmd: 'cat' });
      await until(bridge.hub, `round ${round} followed`, (h) => [...h.panes.values()].filter((p) => p.sessionName.startsWith(`r${round}-`)).length === SESSIONS, 30_000);
    }
    expect((await desk.tmux.tmux('list-sessions', '-F', '#{session_name}')).trim().split('\n')).toHaveLength(1 + 4 * SESSIONS);
  });

  // A script that is slow between sessions (a workspace loader starting each agent, a loaded
  // machine) makes them a few hundred milliseconds apart. With the bridge attaching after 250 ms
  // of quiet, the next session could come as its client attached: the crash above, seen in a
  // full test run under load. Sessions here come 230 to 400 ms apart, one gap a step longer
  // than the last, so one of them meets an attach where the window is shorter than that.
  it('sessions made a few hundred milliseconds apart leave the tmux server running', async () => {
    await using desk = await liveDesk('collie-session-slow');
    await desk.tmux.newSession('base', { cmd: 'cat' });
    const bridge = await desk.startBridge();
    const gaps = Array.from({ length: 58 }, (_, i) => 230 + 3 * i);
    let at = Date.now();
    for (const [i, gap] of gaps.entries()) {
      await desk.tmux.newSession(`slow-${i}`, { cmd: 'cat' });
      at += gap;
      await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
    }
    await until(bridge.hub, 'every session followed', (h) => [...h.panes.values()].filter((p) => p.sessionName.startsWith('slow-')).length === gaps.length, 30_000);
    expect((await desk.tmux.tmux('list-sessions', '-F', '#{session_name}')).trim().split('\n')).toHaveLength(1 + gaps.length);
  });
});
