import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitLabeler, readGitLabel } from '../src/labels/git-label';

// Real repositories made by real git, isolated from the user's and system's git config.
let root: string;
const env = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

function newRepo(name: string, commit = true): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  if (commit) {
    writeFileSync(join(dir, 'README'), name);
    git(dir, 'add', 'README');
    git(dir, 'commit', '-q', '-m', 'first');
  }
  return dir;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'collie-labels-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('readGitLabel', () => {
  it('is null outside a repository', async () => {
    const dir = join(root, 'plain');
    mkdirSync(dir);
    // Git agrees: the temp dir is not inside some enclosing repository.
    expect(() => git(dir, 'rev-parse', '--git-dir')).toThrow(/not a git repository/);
    await expect(readGitLabel(dir)).resolves.toBeNull();
  });

  it('names the branch of a fresh repository with no commit yet', async () => {
    const dir = newRepo('fresh', false);
    await expect(readGitLabel(dir)).resolves.toBe('fresh#main');
  });

  it('finds the repository from a subdirectory', async () => {
    const dir = newRepo('deep');
    const sub = join(dir, 'a', 'b');
    mkdirSync(sub, { recursive: true });
    await expect(readGitLabel(sub)).resolves.toBe('deep#main');
  });

  it('follows a branch switch, slashes included', async () => {
    const dir = newRepo('switch');
    git(dir, 'checkout', '-q', '-b', 'feature/block-renderer');
    await expect(readGitLabel(dir)).resolves.toBe('switch#feature/block-renderer');
  });

  it('shows a detached HEAD as git short hash', async () => {
    const dir = newRepo('detached');
    git(dir, 'checkout', '-q', '--detach');
    const short = git(dir, 'rev-parse', '--short=7', 'HEAD');
    await expect(readGitLabel(dir)).resolves.toBe(`detached#${short}`);
  });

  it('names a linked worktree after its main repository and its own branch', async () => {
    const dir = newRepo('mainrepo');
    const wt = join(root, 'mainrepo-fix-465');
    git(dir, 'worktree', 'add', '-q', '-b', 'fix-465', wt);
    await expect(readGitLabel(wt)).resolves.toBe('mainrepo#fix-465');
    mkdirSync(join(wt, 'src'));
    await expect(readGitLabel(join(wt, 'src'))).resolves.toBe('mainrepo#fix-465');
    await expect(readGitLabel(dir)).resolves.toBe('mainrepo#main');
  });

  it('names a submodule after its own directory', async () => {
    const lib = newRepo('libsrc');
    const app = newRepo('app');
    git(app, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'vendor/lib');
    const sub = join(app, 'vendor', 'lib');
    const branch = git(sub, 'rev-parse', '--abbrev-ref', 'HEAD');
    const head = branch === 'HEAD' ? git(sub, 'rev-parse', '--short=7', 'HEAD') : branch;
    await expect(readGitLabel(sub)).resolves.toBe(`lib#${head}`);
    await expect(readGitLabel(app)).resolves.toBe('app#main');
  });

  it('is null for a .git file that points nowhere readable', async () => {
    const dir = join(root, 'broken');
    mkdirSync(dir);
    writeFileSync(join(dir, '.git'), 'not a gitdir line\n');
    await expect(readGitLabel(dir)).resolves.toBeNull();
    writeFileSync(join(dir, '.git'), 'gitdir: ../nowhere\n');
    await expect(readGitLabel(dir)).resolves.toBeNull();
  });
});

describe('createGitLabeler', () => {
  it('reuses an answer within the TTL and reads again after it', async () => {
    const dir = newRepo('cached');
    let t = 1_000;
    const label = createGitLabeler({ ttlMs: 2000, now: () => t });
    await expect(label(dir)).resolves.toBe('cached#main');
    git(dir, 'checkout', '-q', '-b', 'next');
    t += 1999;
    await expect(label(dir)).resolves.toBe('cached#main');
    t += 1;
    await expect(label(dir)).resolves.toBe('cached#next');
  });

  it('shares one read between concurrent calls and bounds its size', async () => {
    const calls: string[] = [];
    const label = createGitLabeler({
      maxEntries: 2,
      now: () => 0,
      read: async (cwd) => {
        calls.push(cwd);
        return `${cwd}#main`;
      },
    });
    await Promise.all([label('/a'), label('/a'), label('/a')]);
    expect(calls).toEqual(['/a']);
    await label('/b');
    await label('/c');
    await label('/a');
    expect(calls).toEqual(['/a', '/b', '/c', '/a']);
  });

  it('answers null when the reader throws', async () => {
    const label = createGitLabeler({ read: () => Promise.reject(new Error('EIO')) });
    await expect(label('/x')).resolves.toBeNull();
  });
});
