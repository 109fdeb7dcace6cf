import type { ChangedFile } from '@collie/protocol';
import type { ParsedFile } from './parse-diff';
import type { RepoStatus } from './status';

/** Diff lines per page: a phone shows this much at once without strain. */
export const PAGE_LINES = 2000;

const linesOf = (f: ParsedFile): number => f.hunks.reduce((n, h) => n + h.lines.length, 0);

/**
 * The files of the diff joined with the status (staged / unstaged flags, untracked files, which
 * have no diff), cut into pages of about `PAGE_LINES` lines. A page holds whole files while they
 * fit; a file larger than a page is cut to one page (`cut` says how many lines were left out).
 * Pure.
 */
export function pageChanges(parsed: readonly ParsedFile[], status: RepoStatus, page: number, budget = PAGE_LINES): { files: ChangedFile[]; pages: number } {
  const flags = new Map(status.entries.map((e) => [e.path, e]));
  const all: ChangedFile[] = parsed.map((f) => {
    const s = flags.get(f.path);
    return { ...f, staged: s?.staged ?? false, unstaged: s?.unstaged ?? true, cut: 0 };
  });
  const seen = new Set(all.map((f) => f.path));
  for (const e of status.entries) {
    if (e.status === 'untracked' && !seen.has(e.path)) {
      all.push({ path: e.path, oldPath: null, status: 'untracked', binary: false, additions: 0, deletions: 0, staged: false, unstaged: true, hunks: [], cut: 0 });
    }
  }
  const pages: ChangedFile[][] = [[]];
  let used = 0;
  for (const f of all) {
    const n = linesOf(f);
    let current = pages[pages.length - 1] ?? [];
    if (used > 0 && used + n > budget) {
      current = [];
      pages.push(current);
      used = 0;
    }
    current.push(n > budget ? cutFile(f, budget) : f);
    used += Math.min(n, budget);
  }
  const at = Math.min(Math.max(0, page), pages.length - 1);
  return { files: pages[at] ?? [], pages: pages.length };
}

function cutFile(f: ChangedFile, budget: number): ChangedFile {
  let left = budget;
  const hunks = [];
  for (const h of f.hunks) {
    if (left <= 0) break;
    hunks.push(h.lines.length <= left ? h : { header: h.header, lines: h.lines.slice(0, left) });
    left -= h.lines.length;
  }
  return { ...f, hunks, cut: linesOf(f) - budget };
}
