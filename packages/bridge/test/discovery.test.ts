import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Snapshot } from '@collie/protocol';
import { startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, panesOf, until } from './harness';

describe('discovery: a real private tmux server', () => {
  it('sessions, windows and panes that appear and close show up and go', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    const first = await tmux.newSession('alpha', { cmd: 'sh' });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const hub = bridge.hub;
    await until(hub, 'the first pane', (h) => h.panes.get(`${tmux.name}:${first}`));

    const t0 = Date.now();
    const second = await tmux.newSession('beta', { cmd: 'sh' });
    const p2 = await until(hub, 'a pane of a new session', (h) => h.panes.get(`${tmux.name}:${second}`));
    expect(p2.sessionName).toBe('beta');
    const split = (await tmux.tmux('split-window', '-t', first, '-P', '-F', '#{pane_id}', 'sh')).trim();
    const p3 = await until(hub, 'a split pane', (h) => h.panes.get(`${tmux.name}:${split}`));
    expect(p3.sessionName).toBe('alpha');
    const win = (await tmux.tmux('new-window', '-t', 'beta', '-P', '-F', '#{pane_id}', 'sh')).trim();
    await until(hub, 'a pane of a new window', (h) => h.panes.get(`${tmux.name}:${win}`));
    const appeared = Date.now() - t0;

    await tmux.tmux('kill-pane', '-t', split);
    await until(hub, 'the split pane to go', (h) => !h.panes.has(`${tmux.name}:${split}`));
    await tmux.tmux('kill-session', '-t', 'beta');
    await until(hub, 'the beta session to go', (h) => !panesOf(h).some((p) => p.sessionName === 'beta'));
    expect(panesOf(hub).map((p) => p.tmuxId)).toEqual([first]);
    expect(appeared).toBeLessThan(5000);
  });

  it('a pane labels itself <repo>#<branch> from git in its cwd, and carries an address with a token', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    await using work = await tempDir('collie-repo');
    const repo = join(work.path, 'shop');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', '-b', 'fix-465', repo]);
    const pane = await tmux.newSession('code', { cmd: 'sh', cwd: repo });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const p = await until(bridge.hub, 'the git label', (h) => {
      const v = h.panes.get(`${tmux.name}:${pane}`);
      return v?.label === 'shop#fix-465' && v;
    });
    expect(p.address).toMatch(new RegExp(`^local/${tmux.name}:${pane.replace('%', '%')}#[a-z2-9]{4}$`));
    expect(p.harness).toBe('shell');
    expect(p.state).toBe('unknown');
  });

  it('a tmux server killed and started again is picked up again; the bridge lives on', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    const a = await tmux.newSession('one', { cmd: 'sh' });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    await until(bridge.hub, 'the first pane', (h) => h.panes.get(`${tmux.name}:${a}`));
    await tmux.tmux('kill-server').catch(() => undefined);
    await until(bridge.hub, 'the server to go', (h) => h.servers.size === 0 && h.panes.size === 0);
    // A client started while the killed server still winds down meets "server exited
    // unexpectedly" from tmux itself: start it again, as a person would.
    let b = '';
    for (let tries = 0; !b; tries++) {
      b = await tmux.newSession('two', { cmd: 'sh' }).catch((err: unknown) => {
        if (tries >= 20 || !String(err).includes('server exited unexpectedly')) throw err;
        return new Promise<string>((r) => setTimeout(() => r(''), 100));
      });
    }
    const p = await until(bridge.hub, 'the restarted server', (h) => h.panes.get(`${tmux.name}:${b}`));
    expect(p.sessionName).toBe('two');
    const res = await fetch(`${bridge.url}/api/snapshot`, { headers: bridge.device.headers });
    expect(Snapshot.parse(await res.json()).panes).toHaveLength(1);
  });

  it('keeps a pane token across a bridge restart', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    const a = await tmux.newSession('one', { cmd: 'sh' });
    const first = await bridgeFor(tmux.tmpDir, state.path);
    const before = await until(first.hub, 'the pane', (h) => h.panes.get(`${tmux.name}:${a}`));
    await first.stop();
    await using second = await bridgeFor(tmux.tmpDir, state.path);
    const after = await until(second.hub, 'the pane again', (h) => h.panes.get(`${tmux.name}:${a}`));
    expect(after.token).toBe(before.token);
  });

  it('sees a second server that starts after the bridge, with its own socket name in the address', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    await tmux.newSession('one', { cmd: 'sh' });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    await using other = await startTmux({ tmpDir: tmux.tmpDir });
    const b = await other.newSession('other', { cmd: 'sh' });
    const p = await until(bridge.hub, 'the second server', (h) => h.panes.get(`${other.name}:${b}`));
    expect(p.server).toBe(other.name);
    expect(bridge.hub.servers.size).toBe(2);
  });
});
