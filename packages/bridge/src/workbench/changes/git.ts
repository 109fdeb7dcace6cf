import { execFile } from 'node:child_process';
import { ApiError } from '../../http/api-error';
import { gitErrorWords } from './git-words';
import { driverOverrides, gitEnv, safeConfigArgs } from './git-safety';

/** A diff over this is refused, not paged: git's output is held in memory once per request. */
export const MAX_GIT_OUTPUT = 64 * 1024 * 1024;

type Exec = { stdout: string; stderr: string; err: (NodeJS.ErrnoException & { code?: unknown }) | null };

function exec(cwd: string, argv: readonly string[], env: NodeJS.ProcessEnv): Promise<Exec> {
  return new Promise((resolve) => {
    execFile('git', argv, { cwd, maxBuffer: MAX_GIT_OUTPUT, timeout: 30_000, env, encoding: 'utf8' }, (err, stdout, stderr) =>
      resolve({ stdout, stderr, err: err as Exec['err'] }),
    );
  });
}

/**
 * One `git` process: the only way the bridge runs git (no library re-implements it, nothing
 * else spawns it). No colour, no optional locks (a read must never block the agent's own
 * git), C locale; 30 s at most. None of the commands a repository's config may name runs
 * (`git-safety.ts`): a first `git config` reads which filters and diff drivers it defines, so
 * each of them is emptied too. `exit1`: exit status 1 is an answer.
 */
export async function git(cwd: string, args: readonly string[], opts: { exit1?: boolean } = {}): Promise<string> {
  const base = gitEnv(process.env);
  const safe = safeConfigArgs();
  const drivers = await exec(cwd, [...safe, 'config', '-z', '--get-regexp', '^(filter|diff)\\.'], base);
  // Exit 1: no such key. Anything else (not a repository, a broken config) the real call says.
  const env = { ...base, ...driverOverrides(drivers.err ? '' : drivers.stdout) };
  const { stdout, stderr, err: e } = await exec(cwd, [...safe, ...args], env);
  // `git check-ignore` exits 1 when nothing is ignored: an answer, not a failure.
  if (!e || (opts.exit1 && (e.code as unknown) === 1)) return stdout;
  if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') throw new ApiError('payload_too_large', `changes: git's answer is over ${MAX_GIT_OUTPUT / 1048576} MB`);
  if (/not a git repository/i.test(stderr)) throw new ApiError('not_found', "changes: the pane's folder is not in a git repository");
  if (e.code === 'ENOENT' && typeof e.path === 'string' && e.path === 'git') throw new ApiError('internal', 'changes: git is not installed');
  throw new ApiError('internal', `changes: ${gitErrorWords(args[0] ?? '', stderr, e.message)}`);
}
