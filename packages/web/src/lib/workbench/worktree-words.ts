import type { Worktree } from '@collie/protocol';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A worktree's state in a few words: what a removal would lose, or that nothing would be. Pure. */
export function worktreeState(w: Worktree): string {
  const parts: string[] = [];
  if (w.missing) parts.push('folder gone');
  if (w.panes.length > 0) parts.push(w.panes.length === 1 ? 'a pane runs here' : `${w.panes.length} panes run here`);
  if (w.unpushed > 0) parts.push(plural(w.unpushed, 'unpushed commit', 'unpushed commits'));
  if (w.dirty > 0) parts.push(plural(w.dirty, 'changed file', 'changed files'));
  if (w.branch === null) parts.push('detached HEAD');
  else if (w.merged) parts.push('merged');
  else if (w.unpushed === 0) parts.push('not merged, pushed');
  return parts.join(' · ');
}
