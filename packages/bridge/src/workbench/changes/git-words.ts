/**
 * git's failures as a sentence for the phone. Pure. git writes `fatal: …`, `error: …` and
 * `hint: …` lines meant for a terminal; the page shows what git could not do and git's own
 * reason, without the prefixes, the hints or a second line.
 */

/** What each git command was doing, as the sentence names it. */
const DOING: Readonly<Record<string, string>> = {
  worktree: 'make the worktree',
  status: "read the folder's status",
  diff: 'read the changes',
  'rev-parse': 'read the repository',
  'check-ignore': 'read which files git ignores',
  'ls-files': "list the repository's files",
  branch: 'change the branch',
};

/** "git could not make the worktree: a branch named 'fix' already exists." */
export function gitErrorWords(command: string, stderr: string, fallback: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^hint:/i.test(l));
  const first = lines.find((l) => /^(fatal|error):/i.test(l)) ?? lines[0] ?? fallback;
  let reason = first.replace(/^(fatal|error):\s*/i, '').trim().slice(0, 240);
  if (reason === '') reason = fallback;
  if (!/[.!?]$/.test(reason)) reason += '.';
  return `git could not ${DOING[command] ?? `run git ${command}`}: ${reason}`;
}

/** The sentence for a repository with no commit: a worktree starts from a commit. */
export const NO_COMMIT_WORDS = 'This repository has no commit yet; make a first commit to create worktrees';
