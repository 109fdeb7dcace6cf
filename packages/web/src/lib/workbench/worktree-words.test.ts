import { describe, expect, it } from 'vitest';
import type { Worktree } from '@collie/protocol';
import { worktreeState } from './worktree-words';

const w: Worktree = { repo: '/r', path: '/r-worktrees/x', branch: 'x', panes: [], merged: true, unpushed: 0, dirty: 0, missing: false };

describe('worktreeState', () => {
  it('says merged, unpushed commits, changed files and a running pane', () => {
    expect(worktreeState(w)).toBe('merged');
    expect(worktreeState({ ...w, merged: false, unpushed: 2, dirty: 1 })).toBe('2 unpushed commits · 1 changed file');
    expect(worktreeState({ ...w, panes: ['s:%1'] })).toBe('a pane runs here · merged');
    expect(worktreeState({ ...w, merged: false })).toBe('not merged, pushed');
    expect(worktreeState({ ...w, branch: null, missing: true })).toBe('folder gone · detached HEAD');
  });
});
