/**
 * `collie serve` as its own process in a test: a desk for it (tmux, a dir for its state and
 * config, the environment that points there) and the wait for its start-up line.
 *
 * @example
 * await using work = await serveWork('collie-serve-');
 * const child = spawn(process.execPath, [cli, 'serve'], { env: work.env(), stdio: ['ignore', 'pipe', 'pipe'] });
 * const { url, out } = await untilServing(child);
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startTmux, type TmuxServer } from './tmux';
import { tempDir, type TempDir } from './temp-dir';

/** A private tmux server and a dir (`state`, `config` below it) for a `collie serve` process. */
export interface ServeWork extends AsyncDisposable {
  readonly tmux: TmuxServer;
  readonly dir: TempDir;
  /**
   * This process's environment pointed at the desk (state, config, tmux; systemd detection off),
   * less systemd's markers (INVOCATION_ID, JOURNAL_STREAM) unless `extra` sets them.
   */
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
}

/** Starts a {@link ServeWork} (its dir named `prefix…`), stopped last first. */
export async function serveWork(prefix: string): Promise<ServeWork> {
  const tmux = await startTmux();
  let dir: TempDir;
  try {
    dir = await tempDir(prefix);
  } catch (error) {
    await tmux.kill();
    throw error;
  }
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
    const all: NodeJS.ProcessEnv = { ...process.env, COLLIE_NO_SYSTEMD: '1', COLLIE_STATE_DIR: join(dir.path, 'state'), COLLIE_CONFIG_DIR: join(dir.path, 'config'), TMUX_TMPDIR: tmux.tmpDir, ...extra };
    if (!('INVOCATION_ID' in extra)) delete all['INVOCATION_ID'];
    if (!('JOURNAL_STREAM' in extra)) delete all['JOURNAL_STREAM'];
    return all;
  };
  return {
    tmux,
    dir,
    env,
    async [Symbol.asyncDispose]() {
      await dir.remove();
      await tmux.kill();
    },
  };
}

/**
 * Reads a started `collie serve`'s stdout and stderr (carriage returns dropped) until it has
 * printed `listening on <url>` and `ready` holds of all it printed; rejects if it exits first.
 * `out()` goes on growing with what it prints after.
 */
export async function untilServing(child: ChildProcess, ready: (out: string) => boolean = () => true): Promise<{ url: string; out: () => string }> {
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString().replace(/\r/g, '');
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && ready(out)) resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`collie serve exited (${code}): ${out}`)));
  });
  return { url, out: () => out };
}
