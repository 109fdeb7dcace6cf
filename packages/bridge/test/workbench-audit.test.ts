import { mkdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewPaneAnswer, UploadAnswer } from '@collie/protocol';
import { startTmux, tempDir, type TempDir, type TmuxServer } from '@collie/testkit';
import { bridgeFor, type TestBridge, until } from './harness';
import { git, PNG_1X1, sendFiles, upload } from './workbench-helpers';

/**
 * Every write of the workbench lands in `<state>/audit.log` (0600): one line per request with
 * its method, route, answer status and the paired device that made it, refused writes too, and
 * never a body (the texts, names and paths sent stay out of it).
 */
describe('the workbench audits every write (real tmux, real git, a real bridge)', () => {
  let tmux: TmuxServer;
  let state: TempDir;
  let config: TempDir;
  let work: TempDir;
  let repo: string;
  let bridge: TestBridge;
  let paneId: string;

  const post = (path: string, body: unknown) => fetch(`${bridge.url}/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    tmux = await startTmux();
    state = await tempDir('collie-state');
    config = await tempDir('collie-config');
    work = await tempDir('collie-roots');
    repo = join(await realpath(work.path), 'shop');
    await mkdir(repo);
    await git(work.path, 'init', '-q', '-b', 'main', repo);
    await writeFile(join(repo, 'a.txt'), 'a\n');
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'first');
    await writeFile(join(repo, 'a.txt'), 'secret-edit\n');
    const tmuxPane = await tmux.newSession('audit', { cmd: 'cat', cwd: repo });
    bridge = await bridgeFor(tmux.tmpDir, state.path, { configDir: config.path, env: { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_ROOTS: work.path, SHELL: '/bin/sh' } });
    paneId = `${tmux.name}:${tmuxPane}`;
    await until(bridge.hub, 'the pane', (h) => h.panes.get(paneId)?.cwd === repo, 30_000);
  }, 60_000);

  afterAll(async () => {
    await bridge?.stop();
    await tmux?.kill();
    for (const d of [state, config, work]) await d?.remove();
  });

  it('one line per write, with the device, the route and the status; no body in it', async () => {
    const id = encodeURIComponent(paneId);
    const u = UploadAnswer.parse(await (await upload(bridge, 'private-name.png', PNG_1X1)).json()).upload;
    const writes: [string, number][] = [];
    const did = async (path: string, res: Response) => void writes.push([path, res.status]);
    await did('/api/uploads', await upload(bridge, 'x.png', Buffer.from('\x7fELF\x02', 'latin1')));
    await did(`/api/panes/${id}/send-files`, await sendFiles(bridge, paneId, { text: 'secret-words-1', attachments: [u.id], request_id: 'audit-1' }));
    await did(`/api/panes/${id}/review`, await post(`panes/${id}/review`, { request_id: 'audit-2', comments: [{ path: 'a.txt', line: 1, side: 'new', code: 'secret-edit', text: 'secret-words-2' }] }));
    await did('/api/quick-replies', await post('quick-replies', { replies: [{ label: 'Go', text: 'secret-words-3' }] }));
    await did('/api/launchers', await post('launchers', { name: 'secret launcher', base: 'shell', args: [], folder: null }));
    const started = await post('panes/new', { folder: repo, launcher: 'shell', session: 'audit', worktree: 'secret-branch', first_message: null, request_id: 'audit-3' });
    await did('/api/panes/new', started);
    const a = NewPaneAnswer.parse(await started.clone().json());
    await until(bridge.hub, 'the new pane', (h) => h.panes.has(a.pane), 30_000);
    await did(`/api/panes/${encodeURIComponent(a.pane)}/rename`, await post(`panes/${encodeURIComponent(a.pane)}/rename`, { name: 'secret-window' }));
    await did(`/api/panes/${encodeURIComponent(a.pane)}/close`, await post(`panes/${encodeURIComponent(a.pane)}/close`, { mid_turn: false }));
    await until(bridge.hub, 'the new pane gone', (h) => !h.panes.has(a.pane), 30_000);
    await did('/api/worktrees/remove', await post('worktrees/remove', { path: a.folder, confirm: true }));
    expect(writes.map(([, s]) => s)).toEqual([415, 200, 200, 200, 200, 200, 200, 200, 200]);

    const file = join(state.path, 'audit.log');
    // The audit line names the route as it came (the pane id encoded).
    // The line is written once the answer is made: wait for the last one.
    await expect.poll(async () => (await readFile(file, 'utf8').catch(() => '')).includes('/api/worktrees/remove'), { timeout: 10_000 }).toBe(true);
    const text = await readFile(file, 'utf8');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const [path, status] of writes) {
      expect(lines, path).toContainEqual(expect.objectContaining({ method: 'POST', path, status, by: expect.stringMatching(new RegExp(`^device ${bridge.device.name} \\(`)) }));
    }
    expect(lines).toContainEqual(expect.objectContaining({ method: 'POST', path: '/api/uploads', status: 200 }));
    for (const secret of ['secret-words', 'secret-edit', 'private-name', 'secret launcher', 'secret-window', bridge.device.token]) expect(text).not.toContain(secret);
  }, 120_000);
});
