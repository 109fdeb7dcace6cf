import { open, readdir, realpath, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { MAX_DIR_ENTRIES, MAX_FILE_VIEW_BYTES, MAX_IMAGE_VIEW_BYTES, type FileAnswer, type FileEntry, type FilesAnswer } from '@collie/protocol';
import { ApiError } from '../../http/api-error';
import type { Redactor } from '../../redact';
import { git } from '../changes/git';
import { repoRoot } from '../changes/read-changes';
import { sniffType } from '../uploads/sniff';
import { resolveInside } from './inside';

/** The root a pane's files are browsed in: its repository's top folder, or its folder outside a repository (real paths). */
export async function filesRoot(cwd: string): Promise<{ root: string; start: string; repo: boolean }> {
  const real = await realpath(cwd);
  try {
    const root = await realpath(await repoRoot(real));
    return { root, start: relative(root, real), repo: true };
  } catch (e) {
    if (e instanceof ApiError && e.code === 'not_found') return { root: real, start: '', repo: false };
    throw e;
  }
}

/** One folder under the root, folders first then by name; git-ignored entries left out unless asked (one `git check-ignore`). */
export async function listFolder(cwd: string, rel: string, showIgnored: boolean): Promise<FilesAnswer> {
  const { root, start, repo } = await filesRoot(cwd);
  const dir = await resolveInside(root, rel);
  if (!(await stat(dir)).isDirectory()) throw new ApiError('bad_request', `files: '${rel.slice(0, 200)}' is a file; open it with /file`);
  const all = (await readdir(dir, { withFileTypes: true })).filter((d) => d.name.toLowerCase() !== '.git');
  const ignored = new Set<string>();
  if (repo && all.length > 0) {
    const relOf = (name: string) => relative(root, join(dir, name));
    const out = await git(root, ['check-ignore', '--', ...all.slice(0, MAX_DIR_ENTRIES * 2).map((d) => relOf(d.name))], { exit1: true });
    for (const p of out.split('\n')) if (p) ignored.add(p);
    for (const d of all) if (ignored.has(relOf(d.name))) ignored.add(d.name);
  }
  const shown = all.filter((d) => showIgnored || !ignored.has(d.name));
  const entries: FileEntry[] = [];
  for (const d of shown.slice(0, MAX_DIR_ENTRIES)) {
    const kind = d.isSymbolicLink() ? 'link' : d.isDirectory() ? 'dir' : 'file';
    const size = kind === 'file' ? await stat(join(dir, d.name)).then((s) => s.size, () => null) : null;
    entries.push({ name: d.name, kind, size, ignored: ignored.has(d.name) });
  }
  entries.sort((a, b) => (a.kind === 'dir') !== (b.kind === 'dir') ? (a.kind === 'dir' ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return { root, start, path: relative(root, dir), entries, hidden: all.length - shown.length, truncated: shown.length > MAX_DIR_ENTRIES };
}

/** One file under the root: text (UTF-8, its secrets masked by `mask`) or an image shown, a binary or a huge file only said. */
export async function readFileView(cwd: string, rel: string, mask: Redactor): Promise<FileAnswer> {
  const { root } = await filesRoot(cwd);
  const real = await resolveInside(root, rel);
  const fh = await open(real, 'r');
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw new ApiError('bad_request', `files: '${rel.slice(0, 200)}' is a folder; list it with /files`);
    if (!st.isFile()) throw new ApiError('bad_request', `files: '${rel.slice(0, 200)}' is not a regular file`);
    const path = relative(root, real);
    const size = st.size;
    const head = new Uint8Array(16);
    await fh.read(head, 0, 16, 0);
    const sniffed = size === 0 ? 'text/plain' : sniffType(head);
    if (sniffed?.startsWith('image/')) {
      if (size > MAX_IMAGE_VIEW_BYTES) return { kind: 'too_large', path, size, limit: MAX_IMAGE_VIEW_BYTES };
      const bytes = await fh.readFile();
      return { kind: 'image', path, size, type: sniffed as 'image/png', base64: bytes.toString('base64') };
    }
    if (size > MAX_FILE_VIEW_BYTES) return { kind: 'too_large', path, size, limit: MAX_FILE_VIEW_BYTES };
    const bytes = await fh.readFile();
    if (size > 0 && sniffType(bytes) !== 'text/plain') return { kind: 'binary', path, size };
    return { kind: 'text', path, size, text: mask(bytes.toString('utf8')) };
  } finally {
    await fh.close();
  }
}
