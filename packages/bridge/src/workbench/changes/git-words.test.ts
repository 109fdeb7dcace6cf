import { describe, expect, it } from 'vitest';
import { gitErrorWords } from './git-words';

describe("git's failures in words", () => {
  it("says what git could not do and git's reason, without prefixes or hints", () => {
    const stderr = "hint: Using 'master' as the name for the initial branch.\nfatal: a branch named 'fix' already exists\n";
    expect(gitErrorWords('worktree', stderr, 'exit 128')).toBe("git could not make the worktree: a branch named 'fix' already exists.");
    expect(gitErrorWords('gc', '', 'Command failed')).toBe('git could not run git gc: Command failed.');
    expect(gitErrorWords('diff', 'error: could not read it.\nsecond line\n', 'x')).toBe('git could not read the changes: could not read it.');
  });
});
