/**
 * `<repo>#<branch>` for a directory, from git's files, cached briefly.
 *
 * Pane discovery asks for the label of every pane on every change, often for the same few
 * directories; a cache entry lives `ttlMs` (2 s by default), so a branch switch shows within
 * that and a burst of events reads each directory once.
 */
import { findGit, readHead } from './git-dir';

/**
 * The label of `cwd` read now, without the cache: `<repo>#<branch>`, or `<repo>#<short hash>`
 * for a detached HEAD, or null outside a repository.
 */
export async function readGitLabel(cwd: string): Promise<string | null> {
  const git = await findGit(cwd);
  if (!git) return null;
  const head = await readHead(git.gitDir);
  return head === null ? null : `${git.repo}#${head}`;
}

/** Options of {@link createGitLabeler}. */
export interface GitLabelerOptions {
  /** How long an answer is reused, in ms. */
  readonly ttlMs?: number;
  /** Most directories remembered; the oldest is forgotten first. */
  readonly maxEntries?: number;
  /** The clock, in ms. */
  readonly now?: () => number;
  /** The uncached reader; tests count its calls. */
  readonly read?: (cwd: string) => Promise<string | null>;
}

/** A cached git labeler. */
export type GitLabeler = (cwd: string) => Promise<string | null>;

/**
 * A git labeler with its own cache. Concurrent calls for one directory share one read.
 *
 * @example
 * const label = createGitLabeler({ ttlMs: 2000 });
 * await label('/home/ada/src/collie/packages'); // 'collie#main'
 */
export function createGitLabeler(options: GitLabelerOptions = {}): GitLabeler {
  const { ttlMs = 2000, maxEntries = 512, now = Date.now, read = readGitLabel } = options;
  const cache = new Map<string, { at: number; value: Promise<string | null> }>();
  return (cwd) => {
    const t = now();
    const hit = cache.get(cwd);
    if (hit && t - hit.at < ttlMs) return hit.value;
    // A read that throws is a directory we cannot label, not a reason to fail the caller.
    const value = read(cwd).catch(() => null);
    cache.delete(cwd);
    cache.set(cwd, { at: t, value });
    if (cache.size > maxEntries) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    return value;
  };
}

/**
 * `<repo>#<branch>` from git in `cwd`, or null outside a repository. Shares one process-wide
 * cache with a 2 s TTL.
 *
 * @example
 * await gitLabel('/home/ada/src/collie'); // 'collie#fix-465'
 */
export const gitLabel: GitLabeler = createGitLabeler();
