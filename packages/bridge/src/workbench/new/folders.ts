import { existsSync } from 'node:fs';
import { readdir, realpath } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { isInside } from '../files/inside';

/** `COLLIE_ROOTS`: absolute folders, `:`-separated; the others are ignored. */
export function rootsOf(env: NodeJS.ProcessEnv): string[] {
  return (env.COLLIE_ROOTS ?? '').split(delimiter).filter((r) => r && isAbsolute(r));
}

/** Git repositories at most `depth` folders under `dir` (hidden folders and node_modules skipped), at most `limit`. */
async function reposUnder(dir: string, depth: number, out: string[], limit: number): Promise<void> {
  if (out.length >= limit) return;
  if (existsSync(join(dir, '.git'))) out.push(dir);
  if (depth === 0) return;
  const kids = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const k of kids.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (k.isDirectory() && !k.name.startsWith('.') && k.name !== 'node_modules') await reposUnder(join(dir, k.name), depth - 1, out, limit);
  }
}

/** The folders the New page offers: the panes' folders (recent), then the roots and the git repositories under them (two levels). */
export async function offeredFolders(paneFolders: readonly string[], roots: readonly string[]): Promise<{ path: string; repo: boolean; recent: boolean }[]> {
  const out = new Map<string, { path: string; repo: boolean; recent: boolean }>();
  for (const f of paneFolders) if (f && existsSync(f)) out.set(f, { path: f, repo: existsSync(join(f, '.git')), recent: true });
  for (const r of roots) {
    const found: string[] = [];
    await reposUnder(r, 2, found, 500);
    if (!out.has(r) && existsSync(r)) out.set(r, { path: r, repo: existsSync(join(r, '.git')), recent: false });
    for (const f of found) if (!out.has(f)) out.set(f, { path: f, repo: true, recent: false });
  }
  return [...out.values()];
}

/** Whether the phone may start something in `folder`: a pane's folder, or inside a root (real paths, symlinks resolved). */
export async function folderAllowed(folder: string, paneFolders: readonly string[], roots: readonly string[]): Promise<boolean> {
  if (!isAbsolute(folder)) return false;
  const real = await realpath(folder).catch(() => null);
  if (!real) return false;
  if (paneFolders.includes(folder) || paneFolders.includes(real)) return true;
  for (const r of roots) {
    const rr = await realpath(r).catch(() => null);
    if (rr && isInside(rr, real)) return true;
  }
  return false;
}
