import type { ChangeStatus } from '@collie/protocol';

/** One entry of `git status --porcelain=v2 -z`. */
export interface StatusEntry {
  path: string;
  oldPath: string | null;
  status: ChangeStatus;
  staged: boolean;
  unstaged: boolean;
}

export interface RepoStatus {
  branch: string | null;
  /** No commit yet: the diff is against the empty tree. */
  initial: boolean;
  entries: StatusEntry[];
}

const kindOf = (xy: string): ChangeStatus => (xy.includes('A') ? 'added' : xy.includes('D') ? 'deleted' : 'modified');

/**
 * Parse `git status --porcelain=v2 -z --branch --untracked-files=all`. Pure and total. Paths
 * are NUL-terminated (never quoted); a rename's entry is followed by its old path.
 */
export function parseStatus(out: string): RepoStatus {
  const fields = out.split('\0');
  const result: RepoStatus = { branch: null, initial: false, entries: [] };
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] ?? '';
    if (f.startsWith('# branch.head ')) {
      const head = f.slice(14);
      result.branch = head === '(detached)' ? null : head;
    } else if (f === '# branch.oid (initial)') result.initial = true;
    else if (f.startsWith('1 ')) {
      const parts = f.split(' ');
      const xy = parts[1] ?? '..';
      result.entries.push({ path: parts.slice(8).join(' '), oldPath: null, status: kindOf(xy), staged: xy[0] !== '.', unstaged: xy[1] !== '.' });
    } else if (f.startsWith('2 ')) {
      const parts = f.split(' ');
      const xy = parts[1] ?? '..';
      const oldPath = fields[++i] ?? null;
      result.entries.push({ path: parts.slice(9).join(' '), oldPath, status: 'renamed', staged: xy[0] !== '.', unstaged: xy[1] !== '.' });
    } else if (f.startsWith('u ')) {
      const parts = f.split(' ');
      result.entries.push({ path: parts.slice(10).join(' '), oldPath: null, status: 'modified', staged: true, unstaged: true });
    } else if (f.startsWith('? ')) {
      result.entries.push({ path: f.slice(2), oldPath: null, status: 'untracked', staged: false, unstaged: true });
    }
  }
  return result;
}
