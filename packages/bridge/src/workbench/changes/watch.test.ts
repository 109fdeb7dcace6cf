import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RepoWatchers, relevant } from './watch';

describe('watching a repository for changes', () => {
  it('counts work-tree files, the index, HEAD and refs; not the rest of .git', () => {
    expect(['src/a.ts', 'a', '.gitignore', '.git/index', '.git/HEAD', '.git/refs/heads/main'].every(relevant)).toBe(true);
    expect(['.git/objects/ab/cdef', '.git/index.lock', '.git/logs/HEAD', '.git/FETCH_HEAD'].some(relevant)).toBe(false);
  });

  it('one shared watcher per repository: each waiter is told once, and the last to leave closes it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'collie-watch-'));
    try {
      await mkdir(join(root, 'src', 'deep'), { recursive: true });
      const watchers = new RepoWatchers();
      let a = 0;
      let b = 0;
      const told = new Promise<void>((resolve) => {
        watchers.once(root, () => {
          a++;
          resolve();
        });
      });
      const stopB = watchers.once(root, () => b++);
      expect(watchers.size).toBe(1);
      await writeFile(join(root, 'src', 'deep', 'x.ts'), 'x');
      await told;
      expect(a).toBe(1);
      expect(b).toBe(1);
      stopB();
      expect(watchers.size).toBe(0);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
