import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exited } from './process-exit';
import { waitForScreen, type ScreenPredicate } from './wait';

/** Where and how a new pane starts. */
export interface PaneOptions {
  /** Command to run: a shell string, or an argv run without a shell. Default: the user's shell. */
  cmd?: string | string[];
  cwd?: string;
  /** Extra environment for the pane only (tmux `-e`). */
  env?: Record<string, string>;
}

/** Size of a new session's first window. */
export interface SessionOptions extends PaneOptions {
  width?: number;
  height?: number;
}

/** Options of {@link startTmux}. */
export interface StartTmuxOptions {
  /** Server name for `tmux -L`. Default: `collie-test-<random>`. */
  name?: string;
  /**
   * TMUX_TMPDIR for the server. Default: a fresh private dir (mode 0700) removed by `kill()`.
   * A dir passed here belongs to the caller and is left in place; only the socket is removed.
   */
  tmpDir?: string;
}

/** A running tmux server that only this test (and what it starts) can see. */
export interface TmuxServer extends AsyncDisposable {
  /** The `-L` name. */
  readonly name: string;
  /** TMUX_TMPDIR of the server: the socket is `<tmpDir>/tmux-<uid>/<name>`. */
  readonly tmpDir: string;
  readonly socketPath: string;
  /** Environment for child processes that should see this server: TMUX_TMPDIR set, TMUX unset. */
  readonly env: NodeJS.ProcessEnv;
  /** Runs `tmux -L <name> -f /dev/null …args` and resolves with its stdout. */
  tmux(...args: string[]): Promise<string>;
  /** Creates a detached session and resolves with its first pane id (`%N`). */
  newSession(name: string, opts?: SessionOptions): Promise<string>;
  /** Creates a window in `target` (a session name or pane id) and resolves with its pane id. */
  newWindow(target: string, opts?: PaneOptions & { name?: string }): Promise<string>;
  /** Splits the pane `target` and resolves with the new pane id. */
  splitWindow(target: string, opts?: PaneOptions & { horizontal?: boolean }): Promise<string>;
  killPane(paneId: string): Promise<void>;
  /** The visible screen of a pane; with `escapes`, its SGR styling too (`capture-pane -e`). */
  capture(paneId: string, opts?: { escapes?: boolean }): Promise<string>;
  /** Sends tmux key names (`Enter`, `Escape`, `C-c`, `Down`). */
  sendKeys(paneId: string, ...keys: string[]): Promise<void>;
  /** Types text literally (`send-keys -l`), without pressing Enter. */
  typeText(paneId: string, text: string): Promise<void>;
  /** Re-captures the pane until the predicate holds; throws with the last screen on timeout. */
  waitForScreen(paneId: string, predicate: ScreenPredicate, timeoutMs?: number): Promise<string>;
  /** Kills the server and removes what it left behind. Safe to call twice. */
  kill(): Promise<void>;
}

const PANE_FORMAT = ['-P', '-F', '#{pane_id}'];

/** Variables that tell a program it runs in CI; no test tmux server passes them on to its panes. */
export const CI_MARKERS: readonly string[] = ['CI', 'CONTINUOUS_INTEGRATION', 'GITHUB_ACTIONS', 'BUILD_NUMBER', 'RUN_ID'];


/**
 * Starts a private tmux server. It never touches the user's default server: every command
 * names the server with `-L` and carries its own TMUX_TMPDIR.
 *
 * @example
 * await using tmux = await startTmux();
 * const pane = await tmux.newSession('work', { cmd: 'cat' });
 * await tmux.typeText(pane, 'hi');
 * await tmux.waitForScreen(pane, /hi/);
 */
export async function startTmux(opts: StartTmuxOptions = {}): Promise<TmuxServer> {
  const name = opts.name ?? `collie-test-${randomBytes(5).toString('hex')}`;
  const ownsDir = opts.tmpDir === undefined;
  const tmpDir = opts.tmpDir ?? (await mkdtemp(join(tmpdir(), 'collie-tmux-')));
  const uid = process.getuid?.() ?? 0;
  const socketPath = join(tmpDir, `tmux-${uid}`, name);
  const env: NodeJS.ProcessEnv = { ...process.env, TMUX_TMPDIR: tmpDir };
  delete env.TMUX;
  delete env.TMUX_PANE;
  // The server's environment is what every pane it starts inherits, a bridge's new windows too:
  // a person's tmux does not say it runs in CI (Gemini CLI, told CI=true, runs headless and ends).
  for (const v of CI_MARKERS) delete env[v];

  const tmux = (...args: string[]) => run(name, env, args);
  // `exit-empty off` keeps a server with no sessions alive, so a test sees an empty server
  // rather than a placeholder session a bridge would report as a pane.
  try {
    await tmux('start-server', ';', 'set-option', '-s', 'exit-empty', 'off');
  } catch (err) {
    if (ownsDir) await rm(tmpDir, { recursive: true, force: true });
    throw err;
  }
  const pid = Number((await tmux('display-message', '-p', '#{pid}')).trim());

  const guard = watchdog(name, env, ownsDir ? tmpDir : socketPath);
  let killed = false;
  const kill = async () => {
    if (killed) return;
    killed = true;
    // Each pane's process leads a process group of its own. Some programs outlive the hang-up
    // kill-server sends (a Gemini CLI the bridge resumed kept running, orphaned, for an hour):
    // their groups are killed once the server is gone.
    const groups = (await tmux('list-panes', '-a', '-F', '#{pane_pid}').catch(() => ''))
      .split('\n')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 1);
    await tmux('kill-server').catch(() => undefined);
    // kill-server hangs up every pane first; give the server that moment before forcing it.
    if (pid > 0 && !(await exited(pid, 2_000))) forceKill(pid);
    for (const g of groups) forceKill(-g);
    if (ownsDir) await rm(tmpDir, { recursive: true, force: true });
    else await unlink(socketPath).catch(() => undefined);
    guard.dismiss();
  };

  const paneArgs = (o: PaneOptions) => [
    ...(o.cwd ? ['-c', o.cwd] : []),
    ...Object.entries(o.env ?? {}).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
  ];
  const cmdArgs = (o: PaneOptions) => (o.cmd === undefined ? [] : typeof o.cmd === 'string' ? [o.cmd] : o.cmd);
  const capture = async (paneId: string, o: { escapes?: boolean } = {}) =>
    tmux('capture-pane', '-p', ...(o.escapes ? ['-e'] : []), '-t', paneId);

  return {
    name,
    tmpDir,
    socketPath,
    env,
    tmux,
    async newSession(session, o = {}) {
      const size = ['-x', String(o.width ?? 200), '-y', String(o.height ?? 50)];
      const out = await tmux('new-session', '-d', '-s', session, ...size, ...paneArgs(o), ...PANE_FORMAT, ...cmdArgs(o));
      return out.trim();
    },
    async newWindow(target, o = {}) {
      const named = o.name ? ['-n', o.name] : [];
      const out = await tmux('new-window', '-d', '-t', `${target}:`, ...named, ...paneArgs(o), ...PANE_FORMAT, ...cmdArgs(o));
      return out.trim();
    },
    async splitWindow(target, o = {}) {
      const dir = o.horizontal ? '-h' : '-v';
      const out = await tmux('split-window', '-d', dir, '-t', target, ...paneArgs(o), ...PANE_FORMAT, ...cmdArgs(o));
      return out.trim();
    },
    async killPane(paneId) {
      await tmux('kill-pane', '-t', paneId);
    },
    capture,
    async sendKeys(paneId, ...keys) {
      await tmux('send-keys', '-t', paneId, ...keys);
    },
    async typeText(paneId, text) {
      await tmux('send-keys', '-t', paneId, '-l', text);
    },
    waitForScreen(paneId, predicate, timeoutMs) {
      return waitForScreen(() => capture(paneId), predicate, { timeoutMs, what: `pane ${paneId} on tmux -L ${name}` });
    },
    kill,
    [Symbol.asyncDispose]: kill,
  };
}

/**
 * Session names of the server `name` under `tmpDir`, without starting or owning it: empty when
 * no server runs there.
 *
 * @example
 * if ((await listSessions('collie-demo', '/tmp')).length > 0) console.log('a demo is up');
 */
export async function listSessions(name: string, tmpDir: string): Promise<string[]> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMUX_TMPDIR: tmpDir };
  delete env.TMUX;
  const out = await run(name, env, ['list-sessions', '-F', '#{session_name}']).catch(() => '');
  return out.split('\n').filter((l) => l !== '');
}

function forceKill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone meanwhile
  }
}

function run(name: string, env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('tmux', ['-L', name, '-f', '/dev/null', ...args], { env, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`tmux -L ${name} ${args.join(' ')}: ${stderr.trim() || err.message}`, { cause: err }));
      else resolve(stdout);
    });
  });
}

/**
 * A detached `sh` that waits for EOF on a pipe only this process holds, then kills the server
 * and removes `path`. The kernel closes the pipe however this process ends (a forgotten
 * dispose, a test worker killed on timeout, SIGKILL), so no server outlives its test.
 * After a clean `kill()` it is dismissed unrun: a later server may reuse the socket path.
 */
function watchdog(name: string, env: NodeJS.ProcessEnv, path: string): { dismiss(): void } {
  const script = 'cat >/dev/null; tmux -L "$1" kill-server 2>/dev/null; rm -rf "$2"';
  const child = spawn('sh', ['-c', script, 'collie-tmux-guard', name, path], { env, stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  child.unref();
  (child.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null)?.unref?.();
  child.on('error', () => undefined);
  return {
    dismiss() {
      // Its own process group (detached): the signal reaches `sh` and `cat` both.
      if (child.pid !== undefined) forceKill(-child.pid);
    },
  };
}
