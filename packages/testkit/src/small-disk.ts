import { execFileSync, spawn, type ExecFileSyncOptions } from 'node:child_process';
import { join } from 'node:path';

/**
 * A small tmpfs mounted at a directory, seen only by the processes started in its mount
 * namespace (made with `unshare -rm`: a user namespace of one's own, no root needed). A state
 * directory on it can be filled to its last bytes, to see what a program does on a full disk.
 */
export interface SmallDisk extends AsyncDisposable {
  /** Where it is mounted (inside the namespace; outside, the directory stays as it was). */
  readonly path: string;
  /** `argv` as a command line that runs it inside the namespace: give it to spawn. */
  inside(argv: readonly string[]): string[];
  /** Runs `argv` inside the namespace; its stdout. */
  run(argv: readonly string[], opts?: ExecFileSyncOptions): string;
  /** Free bytes. */
  free(): number;
  /** Fills it to its last `leaveBytes` (one file, `.fill`, at its root). */
  fill(leaveBytes: number): void;
  /** Frees what {@link fill} took. */
  unfill(): void;
  /** Ends the namespace (its processes keep running; the mount goes with the last of them). */
  close(): Promise<void>;
}

/** Mounts a tmpfs of `mb` megabytes at `path` (a directory that exists) in a namespace of its own. */
export async function smallDisk(path: string, mb: number): Promise<SmallDisk> {
  // The namespace's holder: it lives as long as the disk is wanted; every command enters it.
  const holder = spawn('unshare', ['-rm', 'sh', '-c', `mount -t tmpfs -o size=${mb}m tmpfs "$0" && echo ready && exec sleep 100000`, path], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  holder.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    holder.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    holder.once('error', (e) => reject(new Error(`unshare: ${e.message}`)));
    holder.once('exit', (code) => reject(new Error(`unshare -rm failed (${code}): no tmpfs at ${path}: ${err.trim()}`)));
  });
  const inside = (argv: readonly string[]) => ['nsenter', '-t', String(holder.pid), '-U', '-m', '--preserve-credentials', ...argv];
  const run = (argv: readonly string[], opts: ExecFileSyncOptions = {}) => {
    const [cmd, ...args] = inside(argv);
    return String(execFileSync(cmd!, args, { encoding: 'utf8', ...opts }));
  };
  const free = () => Number(run(['df', '-B1', '--output=avail', path]).trim().split('\n')[1]);
  const fillFile = join(path, '.fill');
  const close = async () => {
    if (holder.exitCode !== null || holder.signalCode !== null) return;
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
  };
  return {
    path,
    inside,
    run,
    free,
    fill(leaveBytes) {
      run(['fallocate', '-l', String(Math.max(0, free() - leaveBytes)), fillFile]);
    },
    unfill() {
      run(['rm', '-f', fillFile]);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
