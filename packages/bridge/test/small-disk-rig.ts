import { execFileSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot, smallDisk, tempDir, type SmallDisk, type TempDir } from '@collie/testkit';
import { bridgeProcess } from './bridge-process';
import { standIn } from './stand-in-rig';

export const CLI = join(repoRoot, 'packages/cli/dist/collie.mjs');

/** The built bridge as a process in the small disk's namespace; disposing stops it (SIGTERM) and waits for it. */
export interface DiskBridge extends AsyncDisposable {
  readonly url: string;
  readonly child: ChildProcess;
  stderr(): string;
  /** Runs `check`; an error it throws also says whether the bridge runs, and what it wrote to stderr. */
  explained(check: () => Promise<void>): Promise<void>;
}

/**
 * A state directory on a 4 MB tmpfs (testkit smallDisk) and a work directory beside it, with a
 * tmux server and the bridge in the disk's namespace: what a bridge does when its state disk
 * fills. Disposing ends the tmux server, then the disk.
 */
export interface SmallDiskDesk extends AsyncDisposable {
  readonly work: TempDir;
  readonly state: TempDir;
  readonly disk: SmallDisk;
  /** The environment of the bridge, the CLI and tmux: state, config and tmux dirs of this desk. */
  readonly env: NodeJS.ProcessEnv;
  /** Runs `tmux -L <name> -f /dev/null …args` in the namespace; its stdout, trimmed. */
  tmux(...args: string[]): string;
  startBridge(): Promise<DiskBridge>;
  /**
   * A stand-in Claude Code (bench/soak/agent/claude) in a new tmux session, told what to do
   * through `fifo` (`busy 3000`, …), logging what it receives to `log`; and a device token
   * for the bridge's routes (`auth`).
   */
  standInPane(): StandInPane;
}

export interface StandInPane {
  pane: string;
  fifo: string;
  log: string;
  auth: { authorization: string };
}

export async function smallDiskDesk(name: string): Promise<SmallDiskDesk> {
  const work = await tempDir(`collie-${name}`);
  const state = await tempDir('collie-state');
  const disk = await smallDisk(state.path, 4);
  const env = { ...process.env, TMUX_TMPDIR: work.path, COLLIE_TMUX_TMPDIR: work.path, COLLIE_STATE_DIR: state.path, COLLIE_CONFIG_DIR: join(state.path, 'config'), COLLIE_NO_SYSTEMD: '1', TMUX: '' };
  const tmux = (...args: string[]) => {
    const [cmd, ...rest] = disk.inside(['tmux', '-L', name, '-f', '/dev/null', ...args]);
    return execFileSync(cmd!, rest, { env, encoding: 'utf8' }).trim();
  };
  const startBridge = async (): Promise<DiskBridge> => {
    const b = await bridgeProcess(env, CLI, (argv) => disk.inside(argv));
    const running = () => (b.child.exitCode === null ? 'runs' : `exited ${b.child.exitCode}`);
    return {
      ...b,
      async explained(check) {
        try {
          await check();
        } catch (err) {
          throw new Error(`${(err as Error).message}\nthe bridge ${running()}: ${b.stderr()}`, { cause: err });
        }
      },
      async [Symbol.asyncDispose]() {
        b.child.kill('SIGTERM');
        await new Promise((r) => (b.child.exitCode !== null ? r(null) : b.child.once('exit', r)));
      },
    };
  };
  const standInPane = (): StandInPane => {
    const fifo = join(work.path, 'fifo');
    const log = join(work.path, 'pane.jsonl');
    execFileSync('mkfifo', [fifo]);
    const pane = tmux('new-session', '-d', '-P', '-F', '#{pane_id}', '-s', 'agents', '-x', '200', '-y', '50', `env SOAK_FIFO=${fifo} SOAK_LOG=${log} ${process.execPath} ${standIn}`);
    const token = disk.run([process.execPath, CLI, 'token', '--name', name], { env }).trim();
    return { pane, fifo, log, auth: { authorization: `Bearer ${token}` } };
  };
  return {
    work,
    state,
    disk,
    env,
    tmux,
    startBridge,
    standInPane,
    async [Symbol.asyncDispose]() {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
      await disk[Symbol.asyncDispose]();
      await state[Symbol.asyncDispose]();
      await work[Symbol.asyncDispose]();
    },
  };
}
