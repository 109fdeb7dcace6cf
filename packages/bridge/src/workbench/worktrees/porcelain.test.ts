import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWorktrees } from './porcelain';

const SHA = '01382c33f00a302675933816a1f1052cb3fdfcdb';

describe('parseWorktrees', () => {
  it('reads the main worktree, a branch, a detached and a pruned one (git 2.39 output)', () => {
    const out = `worktree /r\0HEAD ${SHA}\0branch refs/heads/main\0\0worktree /d\0HEAD ${SHA}\0detached\0prunable gitdir file points to non-existent location\0\0worktree /r-worktrees/f/x\0HEAD ${SHA}\0branch refs/heads/f/x\0\0`;
    expect(parseWorktrees(out)).toEqual([
      { path: '/r', head: SHA, branch: 'main', bare: false, prunable: false },
      { path: '/d', head: SHA, branch: null, bare: false, prunable: true },
      { path: '/r-worktrees/f/x', head: SHA, branch: 'f/x', bare: false, prunable: false },
    ]);
  });

  it('keeps paths with spaces and newlines whole, and never throws on any input', () => {
    expect(parseWorktrees(`worktree /my shop\nx\0HEAD ${SHA}\0\0`)).toEqual([{ path: '/my shop\nx', head: SHA, branch: null, bare: false, prunable: false }]);
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = parseWorktrees(s);
        expect(Array.isArray(r)).toBe(true);
      }),
    );
  });

  it('gives back every written record, in order (property)', () => {
    const rec = fc.record({
      path: fc.string({ minLength: 1 }).filter((p) => !p.includes('\0')),
      head: fc.option(fc.stringMatching(/^[0-9a-f]{40}$/), { nil: null }),
      branch: fc.option(fc.stringMatching(/^[a-z0-9/_-]{1,20}$/), { nil: null }),
      bare: fc.constant(false),
      prunable: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(rec, { maxLength: 6 }), (rs) => {
        const out = rs
          .map((r) => [`worktree ${r.path}`, ...(r.head ? [`HEAD ${r.head}`] : []), r.branch ? `branch refs/heads/${r.branch}` : 'detached', ...(r.prunable ? ['prunable gone'] : []), ''].join('\0') + '\0')
          .join('');
        expect(parseWorktrees(out)).toEqual(rs);
      }),
    );
  });
});
