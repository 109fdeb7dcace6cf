import { execFile } from 'node:child_process';
import { ApiError } from '../../http/api-error';

/** A diff over this is refused, not paged: git's output is held in memory once per request. */
export const MAX_GIT_OUTPUT = 64 * 1024 * 1024;

/**
 * One `git` process: the only way the workbench reads a repository (no library re-implements
 * git). No pager, no colour, no external diff or textconv, no optional locks (a read must never
 * block the agent's own git), C locale; 30 s at most. `exit1`: exit status 1 is an answer.
 */
export function git(cwd: string, args: readonly string[], opts: { exit1?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'core.quotePath=false', '-c', 'color.ui=false', ...args],
      { cwd, maxBuffer: MAX_GIT_OUTPUT, timeout: 30_000, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' }, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: unknown }) | null;
        // `git check-ignore` exits 1 when nothing is ignored: an answer, not a failure.
        if (!e || (opts.exit1 && (e.code as unknown) === 1)) return resolve(stdout);
        if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return reject(new ApiError('payload_too_large', `changes: git's answer is over ${MAX_GIT_OUTPUT / 1048576} MB`));
        if (/not a git repository/i.test(stderr)) return reject(new ApiError('not_found', "changes: the pane's folder is not in a git repository"));
        if (e.code === 'ENOENT' && typeof e.path === 'string' && e.path === 'git') return reject(new ApiError('internal', 'changes: git is not installed'));
        reject(new ApiError('internal', `changes: git ${args[0] ?? ''} failed: ${stderr.trim().slice(0, 300) || e.message}`));
      },
    );
  });
}
