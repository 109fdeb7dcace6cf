import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, FileAnswer, FilesAnswer, MAX_FILE_VIEW_BYTES } from '@collie/protocol';
import type { TempDir, TmuxServer } from '@collie/testkit';
import { type TestBridge, until } from './harness';
import { git, PNG_1X1 } from './workbench-helpers';
import { liveDesk, type LiveDesk } from './live-rig';


describe('files: browsing a real git repository read-only from a pane in its subfolder (real tmux, real bridge)', () => {
  let desk: LiveDesk;
  let tmux: TmuxServer, state: TempDir, work: TempDir;
  let repo: string;
  let bridge: TestBridge;
  let paneId: string;

  const get = (route: 'files' | 'file', path: string | null, extra = '') =>
    fetch(`${bridge.url}/api/panes/${encodeURIComponent(paneId)}/${route}?${path === null ? '' : `path=${encodeURIComponent(path)}`}${extra}`, { headers: bridge.device.headers });
  const refused = async (res: Response, status: number, code: string) => {
    expect(res.status, await res.clone().text()).toBe(status);
    expect(ErrorBody.parse(await res.json()).error.code).toBe(code);
  };

  beforeAll(async () => {
    desk = await liveDesk('collie-files');
    ({ tmux, state, work } = desk);
    repo = join(work.path, 'shop');
    await mkdir(join(repo, 'src'), { recursive: true });
    await mkdir(join(repo, 'node_modules', 'dep'), { recursive: true });
    await mkdir(join(work.path, 'secret'));
    await git(work.path, 'init', '-q', '-b', 'main', repo);
    await writeFile(join(repo, '.gitignore'), 'node_modules/\n*.log\n');
    await writeFile(join(repo, 'src', 'app.ts'), 'export const a = 1;\n');
    await writeFile(join(repo, 'my notes.md'), '# notes with a space\n');
    await writeFile(join(repo, 'debug.log'), 'noise\n');
    await writeFile(join(repo, 'node_modules', 'dep', 'index.js'), '1\n');
    await writeFile(join(repo, 'logo.png'), PNG_1X1);
    await writeFile(join(repo, 'blob.bin'), Buffer.from([0, 1, 2, 3, 0, 255, 254, 0]));
    await writeFile(join(repo, 'huge.txt'), 'z'.repeat(MAX_FILE_VIEW_BYTES + 1));
    await writeFile(join(work.path, 'secret', 'key.txt'), 'do not show\n');
    await symlink('/etc/passwd', join(repo, 'passwd'));
    await symlink(join(work.path, 'secret'), join(repo, 'out'));
    await symlink('src/app.ts', join(repo, 'inside-link'));
    await symlink('loop', join(repo, 'loop'));
    const tmuxPane = await tmux.newSession('files', { cmd: 'cat', cwd: join(repo, 'src') });
    bridge = await desk.startBridge();
    paneId = `${tmux.name}:${tmuxPane}`;
    await until(bridge.hub, 'the pane', (h) => h.panes.get(paneId)?.cwd === join(repo, 'src'), 30_000);
  }, 60_000);

  afterAll(() => desk?.[Symbol.asyncDispose]());

  it("lists the repository's top folder, folders first, git-ignored entries hidden unless asked", async () => {
    const res = await get('files', '');
    expect(res.status, await res.clone().text()).toBe(200);
    const a = FilesAnswer.parse(await res.json());
    expect(a.root).toBe(repo);
    expect(a.start).toBe('src');
    const names = a.entries.map((e) => e.name);
    expect(names[0]).toBe('src');
    expect(names).toEqual(expect.arrayContaining(['.gitignore', 'my notes.md', 'logo.png', 'passwd', 'out']));
    expect(names).not.toContain('node_modules');
    expect(names).not.toContain('debug.log');
    expect(names).not.toContain('.git');
    expect(a.hidden).toBe(2);
    expect(a.entries.find((e) => e.name === 'out')).toMatchObject({ kind: 'link', size: null });
    const all = FilesAnswer.parse(await (await get('files', '', '&ignored=1')).json());
    expect(all.entries.filter((e) => e.ignored).map((e) => e.name).sort()).toEqual(['debug.log', 'node_modules']);
    expect(all.hidden).toBe(0);
    const src = FilesAnswer.parse(await (await get('files', 'src')).json());
    expect(src.entries).toEqual([{ name: 'app.ts', kind: 'file', size: 20, ignored: false }]);
  });

  it('opens text (a name with a space, a symlink inside), shows an image, says binary and huge files', async () => {
    expect(FileAnswer.parse(await (await get('file', 'my notes.md')).json())).toEqual({ kind: 'text', path: 'my notes.md', size: 21, text: '# notes with a space\n' });
    expect(FileAnswer.parse(await (await get('file', 'inside-link')).json())).toMatchObject({ kind: 'text', path: 'src/app.ts', text: 'export const a = 1;\n' });
    const img = FileAnswer.parse(await (await get('file', 'logo.png')).json());
    expect(img).toMatchObject({ kind: 'image', type: 'image/png', size: PNG_1X1.length });
    expect(img.kind === 'image' && Buffer.from(img.base64, 'base64').equals(PNG_1X1)).toBe(true);
    expect(FileAnswer.parse(await (await get('file', 'blob.bin')).json())).toEqual({ kind: 'binary', path: 'blob.bin', size: 8 });
    expect(FileAnswer.parse(await (await get('file', 'huge.txt')).json())).toEqual({ kind: 'too_large', path: 'huge.txt', size: MAX_FILE_VIEW_BYTES + 1, limit: MAX_FILE_VIEW_BYTES });
  });

  it('never reads outside the root: .., absolute paths, symlinks out, loops', async () => {
    for (const p of ['..', '../secret/key.txt', 'src/../../secret/key.txt', '/etc/passwd', 'src/./app.ts', 'a\u0000b', 'src//app.ts']) {
      await refused(await get('file', p), 400, 'bad_request');
      await refused(await get('files', p), 400, 'bad_request');
    }
    await refused(await get('file', 'passwd'), 403, 'outside_root');
    await refused(await get('file', 'out/key.txt'), 403, 'outside_root');
    await refused(await get('files', 'out'), 403, 'outside_root');
    await refused(await get('file', 'loop'), 403, 'outside_root');
    await refused(await get('file', 'nope.txt'), 404, 'not_found');
    await refused(await get('file', 'src'), 400, 'bad_request');
    await refused(await get('files', 'src/app.ts'), 400, 'bad_request');
    await refused(await get('file', null), 400, 'bad_request');
    await refused(await get('files', '', '&ignored=yes'), 400, 'bad_request');
    const other = await fetch(`${bridge.url}/api/panes/${encodeURIComponent(`${tmux.name}:%999`)}/files`, { headers: bridge.device.headers });
    await refused(other, 404, 'not_found');
    expect((await fetch(`${bridge.url}/api/panes/${encodeURIComponent(paneId)}/files`)).status).toBe(401);
  });

  it('answers any path from the phone with a file, a folder or a clear error, never a file outside (property)', async () => {
    const seg = fc.constantFrom('..', '.', '', 'src', 'out', 'passwd', 'key.txt', 'app.ts', 'my notes.md', '/', '%2e%2e', 'secret', '\u202E');
    await fc.assert(
      fc.asyncProperty(fc.array(seg, { minLength: 1, maxLength: 5 }), async (parts) => {
        const p = parts.join('/');
        const res = await get('file', p);
        const text = await res.text();
        expect([200, 400, 403, 404], `${JSON.stringify(p)}: ${res.status} ${text}`).toContain(res.status);
        expect(text).not.toContain('do not show');
        expect(text).not.toContain('root:x:0:0');
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});
