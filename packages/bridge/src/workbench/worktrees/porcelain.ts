/** One record of `git worktree list --porcelain -z`. */
export interface WorktreeRecord {
  readonly path: string;
  /** The HEAD commit, or null (a worktree made on an unborn branch). */
  readonly head: string | null;
  /** The branch's short name (`refs/heads/` taken off), or null when detached. */
  readonly branch: string | null;
  readonly bare: boolean;
  /** git says its folder is gone. */
  readonly prunable: boolean;
}

/**
 * Parses `git worktree list --porcelain -z`: records of NUL-ended `key value` lines, each
 * record ended by an empty line (a second NUL). The first record is the main worktree. Pure;
 * unknown keys are skipped (git adds new ones, `locked`, `prunable`, over versions).
 */
export function parseWorktrees(out: string): WorktreeRecord[] {
  const records: WorktreeRecord[] = [];
  let cur: { path: string; head: string | null; branch: string | null; bare: boolean; prunable: boolean } | null = null;
  for (const line of out.split('\0')) {
    if (line === '') {
      if (cur) records.push(cur);
      cur = null;
      continue;
    }
    const sp = line.indexOf(' ');
    const key = sp < 0 ? line : line.slice(0, sp);
    const value = sp < 0 ? '' : line.slice(sp + 1);
    if (key === 'worktree') {
      if (cur) records.push(cur);
      cur = { path: value, head: null, branch: null, bare: false, prunable: false };
    } else if (!cur) continue;
    else if (key === 'HEAD') cur.head = /^[0-9a-f]{40,64}$/.test(value) ? value : null;
    else if (key === 'branch') cur.branch = value.startsWith('refs/heads/') ? value.slice('refs/heads/'.length) : value;
    else if (key === 'bare') cur.bare = true;
    else if (key === 'prunable') cur.prunable = true;
  }
  if (cur) records.push(cur);
  return records;
}
