import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangesAnswer, ChangesWaitAnswer, ErrorBody, ReceiptBody } from '@collie/protocol';
import type { TempDir, TmuxServer } from '@collie/testkit';
import { git } from './workbench-helpers';
import { type TestBridge, until } from './harness';
import { finalReceipt } from './send-helpers';
import { liveDesk, type LiveDesk } from './live-rig';


describe('changes: a real git repository in a temp dir, a pane in it (cat), a real bridge', () => {
  let desk: LiveDesk;
  let tmux: TmuxServer, state: TempDir, work: TempDir;
  let repo: string;
  let bridge: TestBridge;
  let paneId: string;
  let tmuxPane: string;

  const changes = async (page = 0): Promise<ChangesAnswer> => {
    const res = await fetch(`${bridge.url}/api/panes/${encodeURIComponent(paneId)}/changes?page=${page}`, { headers: bridge.device.headers });
    expect(res.status, await res.clone().text()).toBe(200);
    return ChangesAnswer.parse(await res.json());
  };
  const review = (body: unknown) =>
    fetch(`${bridge.url}/api/panes/${encodeURIComponent(paneId)}/review`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    desk = await liveDesk('collie-repo');
    ({ tmux, state, work } = desk);
    repo = join(work.path, 'shop');
    await mkdir(join(repo, 'src'), { recursive: true });
    await git(work.path, 'init', '-q', '-b', 'main', repo);
    await writeFile(join(repo, 'src', 'app.ts'), 'const a = 1;\nlet b = 2;\nexport { a, b };\n');
    await writeFile(join(repo, 'README.md'), '# shop\n');
    await writeFile(join(repo, 'big.txt'), 'x\n');
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'first');
    // Staged rename, unstaged edit, a new binary file, an untracked text file, a 5 MB change.
    await git(repo, 'mv', 'README.md', 'GUIDE.md');
    await writeFile(join(repo, 'src', 'app.ts'), 'const a = 1;\nconst b = 2;\nexport { a, b };\n');
    await writeFile(join(repo, 'logo.png'), Buffer.from('89504e470d0a1a0a0000000d4948445200', 'hex'));
    await git(repo, 'add', 'logo.png');
    await writeFile(join(repo, 'notes.txt'), 'todo\n');
    await writeFile(join(repo, 'big.txt'), Array.from({ length: 120_000 }, (_, i) => `line ${i} ${'y'.repeat(32)}`).join('\n'));
    await symlink('/etc/passwd', join(repo, 'escape'));
    tmuxPane = await tmux.newSession('review', { cmd: 'cat', cwd: join(repo, 'src') });
    bridge = await desk.startBridge();
    paneId = `${tmux.name}:${tmuxPane}`;
    await until(bridge.hub, 'the pane', (h) => h.panes.get(paneId)?.cwd === join(repo, 'src') && h.panes.get(paneId), 30_000);
  }, 60_000);

  afterAll(() => desk?.[Symbol.asyncDispose]());

  it('lists renames, edits, binary and untracked files, staged and unstaged, from a pane in a subfolder', async () => {
    const c = await changes();
    expect(c.root).toBe(repo);
    expect(c.branch).toBe('main');
    const byPath = new Map(c.paths.map((p) => [p.path, p.status]));
    expect(Object.fromEntries(byPath)).toMatchObject({ 'GUIDE.md': 'renamed', 'src/app.ts': 'modified', 'logo.png': 'added', 'notes.txt': 'untracked', 'big.txt': 'modified', escape: 'untracked' });
    const all = [c, ...(await Promise.all(Array.from({ length: c.pages - 1 }, (_, i) => changes(i + 1))))].flatMap((p) => p.files);
    const app = all.find((f) => f.path === 'src/app.ts');
    expect(app).toMatchObject({ status: 'modified', additions: 1, deletions: 1, staged: false, unstaged: true });
    expect(app?.hunks[0]?.lines.find((l) => l.kind === 'add')).toEqual({ kind: 'add', old: null, new: 2, text: 'const b = 2;' });
    expect(all.find((f) => f.path === 'GUIDE.md')).toMatchObject({ status: 'renamed', oldPath: 'README.md', staged: true });
    expect(all.find((f) => f.path === 'logo.png')).toMatchObject({ status: 'added', binary: true, hunks: [] });
    // A new file shows its contents as added lines, like any other change.
    const notes = all.find((f) => f.path === 'notes.txt');
    expect(notes).toMatchObject({ status: 'untracked', additions: 1, deletions: 0 });
    expect(notes?.hunks[0]?.lines).toEqual([{ kind: 'add', old: null, new: 1, text: 'todo' }]);
    // A symlink out of the repository is listed as the link it is; its target is never read.
    expect(JSON.stringify(all)).not.toContain('root:x:0:0');
  });

  it('pages a 5 MB diff: no page over 2,000 lines, the huge file cut and said', async () => {
    const first = await changes();
    expect(first.pages).toBeGreaterThan(1);
    const pages = await Promise.all(Array.from({ length: first.pages }, (_, i) => changes(i)));
    for (const p of pages) expect(p.files.reduce((n, f) => n + f.hunks.reduce((m, h) => m + h.lines.length, 0), 0)).toBeLessThanOrEqual(2000);
    const big = pages.flatMap((p) => p.files).find((f) => f.path === 'big.txt');
    expect(big?.additions).toBe(120_000);
    expect(big?.cut).toBeGreaterThan(100_000);
    expect((await fetch(`${bridge.url}/api/panes/${encodeURIComponent(paneId)}/changes?page=-1`, { headers: bridge.device.headers })).status).toBe(400);
  });

  it('sends the comments as one message with file and line references, through the send protocol', async () => {
    const res = await review({
      request_id: 'review-1',
      comments: [
        { path: 'src/app.ts', line: 2, side: 'new', code: 'const b = 2;', text: 'good, keep const' },
        { path: 'GUIDE.md', line: 1, side: 'new', code: '# shop', text: 'why the rename?' },
      ],
    });
    expect(res.status, await res.clone().text()).toBe(200);
    ReceiptBody.parse(await res.json());
    expect((await finalReceipt(bridge, 'review-1')).outcome).toBe('typed into the pane');
    const screen = await tmux.waitForScreen(tmuxPane, (s) => s.split('why the rename?').length >= 3, 30_000);
    expect(screen).toContain('Review comments on your changes (2):');
    expect(screen.indexOf('GUIDE.md:1')).toBeLessThan(screen.indexOf('src/app.ts:2'));
  });

  it('a wait answers when a file of the repository changes (a watcher, no polling)', async () => {
    const wait = fetch(`${bridge.url}/api/panes/${encodeURIComponent(paneId)}/changes/wait`, { headers: bridge.device.headers }).then(async (r) => ChangesWaitAnswer.parse(await r.json()));
    // The watcher is set up once the request has found the repository root: change a file until the wait answers.
    let answered = false;
    void wait.then(() => (answered = true));
    for (let i = 0; i < 100 && !answered; i++) {
      await writeFile(join(repo, 'src', 'touched.ts'), `// ${i}\n`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await wait).toEqual({ changed: true });
    const c = await changes();
    expect(c.paths.map((p) => p.path)).toContain('src/touched.ts');
  });

  it('refuses comments on paths outside the changed files, hostile paths, and an empty list', async () => {
    const code = async (body: unknown) => {
      const r = await review(body);
      return [r.status, ErrorBody.parse(await r.json()).error.message];
    };
    const one = (path: string) => ({ request_id: 'review-x', comments: [{ path, line: 1, side: 'new', code: '', text: 'x' }] });
    expect(await code(one('src/other.ts'))).toEqual([400, "changes: 'src/other.ts' is not among the changed files"]);
    for (const hostile of ['../../etc/passwd', '/etc/passwd', 'src/../../x', 'a\u0000b', '']) expect((await code(one(hostile)))[0]).toBe(400);
    expect((await code({ request_id: 'review-y', comments: [] }))[0]).toBe(400);
  });
});
