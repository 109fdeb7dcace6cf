import { existsSync } from 'node:fs';
import { mkdir, readdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewPaneAnswer } from '@collie/protocol';
import { startTmux, tempDir, type TempDir, type TmuxServer } from '@collie/testkit';
import { bridgeFor, type TestBridge, until } from '../harness';
import { call, finalReceipt } from '../send-helpers';

/**
 * Attack replay: a folder whose name holds a tmux format (`#(…)` runs a shell command,
 * `#{…}` reads a variable), as an unpacked archive or a cloned repository can bring, is
 * chosen on the phone's New page. tmux expands formats in `new-window -c` and
 * `new-session -c`: the folder must reach tmux as a literal path, run nothing, and the pane
 * must start in it.
 */
describe('security: a folder name is never a tmux format (New pane, real bridge, real tmux)', () => {
  let tmux: TmuxServer;
  let state: TempDir;
  let config: TempDir;
  let work: TempDir;
  let root: string;
  let bridge: TestBridge;

  const post = (body: unknown) => fetch(`${bridge.url}/api/panes/new`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: JSON.stringify(body) });
  const base = { launcher: 'sh here', worktree: null, first_message: null };

  beforeAll(async () => {
    tmux = await startTmux();
    state = await tempDir('collie-state');
    config = await tempDir('collie-config');
    work = await tempDir('collie-roots');
    root = await realpath(work.path);
    await writeFile(join(config.path, 'launchers.json'), JSON.stringify({ launchers: [{ name: 'sh here', command: ['sh'] }] }));
    await tmux.newSession('home', { cmd: 'cat' });
    bridge = await bridgeFor(tmux.tmpDir, state.path, { configDir: config.path, env: { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_ROOTS: root, SHELL: '/bin/sh' } });
    await until(bridge.hub, 'the first pane', (h) => h.panes.size > 0, 30_000);
  }, 60_000);

  afterAll(async () => {
    await bridge?.stop();
    await tmux?.kill();
    for (const d of [state, config, work]) await d?.remove();
  });

  const hostile = async (name: string): Promise<string> => {
    const folder = join(root, name);
    await mkdir(folder, { recursive: true });
    return folder;
  };

  it.each([
    ['a new window', 'home'],
    ['a new session', null],
  ])('%s in `x#(touch PWNED)` runs nothing and starts in that folder', async (_what, session) => {
    const marker = join(root, `PWNED-${session ?? 'session'}`);
    // The folder's name runs `touch <marker>` if tmux expands it (the name holds the marker's absolute path).
    const folder = await hostile(`x#(touch ${marker})`);
    const res = await post({ ...base, folder, session, request_id: `new-${session ?? 'session'}` });
    expect(res.status, await res.clone().text()).toBe(200);
    const a = NewPaneAnswer.parse(await res.json());
    expect(a.folder).toBe(folder);
    // The pane runs in the folder itself: tmux took the path literally.
    const pane = await until(bridge.hub, 'the new pane', (h) => h.panes.get(a.pane), 30_000);
    await until(bridge.hub, `the new pane in ${folder}`, (h) => h.panes.get(a.pane)?.cwd === folder, 30_000);
    const cwd = await tmux.tmux('display-message', '-p', '-t', pane.tmuxId, '#{pane_current_path}');
    expect(cwd.replace(/\n$/, '')).toBe(folder);
    expect(existsSync(marker)).toBe(false);
    expect((await readdir(root)).filter((f) => f.startsWith('PWNED'))).toEqual([]);
  }, 60_000);

  it('a folder naming tmux variables (`#{pane_id}`, `#S`, `##`) is opened as named, not as their values', async () => {
    const folder = await hostile('v #{pane_id} #S ## #[fg=red] #');
    const res = await post({ ...base, folder, session: 'home', request_id: 'new-vars' });
    expect(res.status, await res.clone().text()).toBe(200);
    const a = NewPaneAnswer.parse(await res.json());
    const pane = await until(bridge.hub, 'the new pane', (h) => h.panes.get(a.pane), 30_000);
    const cwd = await tmux.tmux('display-message', '-p', '-t', pane.tmuxId, '#{pane_current_path}');
    expect(cwd.replace(/\n$/, '')).toBe(folder);
    await until(bridge.hub, `the new pane in ${folder}`, (h) => h.panes.get(a.pane)?.cwd === folder, 30_000);
  }, 60_000);
});

describe('security: the state dir\'s name is never a tmux format (a send, real bridge, real tmux)', () => {
  it('a send goes through load-buffer from a state dir named `s#(touch PWNED)`: the text arrives, nothing runs', async () => {
    await using tmux = await startTmux();
    await using dir = await tempDir('collie-state-parent');
    const marker = join(await realpath(dir.path), 'PWNED');
    const stateDir = join(dir.path, `s#(touch ${marker})`);
    await mkdir(stateDir, { recursive: true });
    const pane = await tmux.newSession('home', { cmd: 'cat' });
    const bridge = await bridgeFor(tmux.tmpDir, stateDir);
    try {
      const id = `${tmux.name}:${pane}`;
      await until(bridge.hub, 'the pane', (h) => h.panes.get(id), 30_000);
      const r = await call(bridge, id, 'send', { text: 'hello through the buffer', request_id: 'state-1' });
      expect(r.state).not.toBe('failed');
      expect((await finalReceipt(bridge, 'state-1')).state).toBe('typed');
      await tmux.waitForScreen(pane, /hello through the buffer/);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await bridge.stop();
    }
  }, 60_000);
});
