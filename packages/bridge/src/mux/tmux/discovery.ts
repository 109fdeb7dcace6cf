import { EventEmitter } from 'node:events';
import { watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { TmuxServer } from './server';

export interface DiscoveryEvents {
  added: [server: TmuxServer];
  removed: [server: TmuxServer, reason: string];
}

export interface DiscoveryOptions {
  /** `<TMUX_TMPDIR>/tmux-<uid>`: where tmux puts every server's socket. */
  socketDir: string;
  env?: NodeJS.ProcessEnv;
  /** The slow safety rescan; it opens sockets, it never spawns a process. */
  rescanMs?: number;
}

/** Retries for a socket that appeared before its first session did. */
const ATTACH_RETRIES_MS = [30, 100, 300, 1000, 3000];

/**
 * Finds every tmux server of the user: each socket in the socket directory, and new ones as
 * they appear (a directory watch), with a slow rescan as a safety net. Liveness is checked
 * by connecting to the socket, so a stale socket costs no process.
 */
export class Discovery extends EventEmitter<DiscoveryEvents> {
  readonly servers = new Map<string, TmuxServer>();
  private readonly pending = new Set<string>();
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly opts: DiscoveryOptions) {
    super();
  }

  async start(): Promise<void> {
    this.watchDir();
    await this.rescan();
    this.timer = setInterval(() => void this.rescan(), this.opts.rescanMs ?? 15_000);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.close();
    if (this.timer) clearInterval(this.timer);
    for (const s of this.servers.values()) s.stop();
    this.servers.clear();
  }

  /** Check every socket now; also what the watch and the timer call. */
  async rescan(): Promise<void> {
    if (!this.watcher) this.watchDir();
    let names: string[];
    try {
      names = await readdir(this.opts.socketDir);
    } catch {
      return; // No tmux server has run yet; the watch on the parent reports the directory.
    }
    await Promise.all(names.map((n) => this.consider(join(this.opts.socketDir, n))));
  }

  private watchDir(): void {
    const dir = this.opts.socketDir;
    try {
      this.watcher = watch(dir, () => void this.rescan());
    } catch {
      // The socket dir does not exist yet: watch its parent until tmux creates it.
      try {
        this.watcher = watch(dirname(dir), (_e, file) => {
          if (file === basename(dir)) {
            this.watcher?.close();
            this.watcher = null;
            void this.rescan();
          }
        });
      } catch {
        this.watcher = null;
      }
    }
    this.watcher?.on('error', () => {
      this.watcher?.close();
      this.watcher = null;
    });
  }

  private async consider(path: string): Promise<void> {
    const name = basename(path);
    if (this.servers.has(name) || this.pending.has(name) || this.stopped) return;
    this.pending.add(name);
    try {
      for (const wait of [0, ...ATTACH_RETRIES_MS]) {
        if (wait) await new Promise((r) => setTimeout(r, wait));
        if (this.stopped || !(await isSocket(path)) || !(await answers(path))) return;
        const server = new TmuxServer(name, path, this.opts.env);
        try {
          await server.start();
        } catch {
          server.stop();
          continue;
        }
        if (this.stopped) return server.stop();
        this.servers.set(name, server);
        server.once('gone', (reason) => {
          server.stop();
          if (this.servers.get(name) === server) this.servers.delete(name);
          this.emit('removed', server, reason);
          void this.rescan(); // a restarted server may already be listening again
        });
        this.emit('added', server);
        return;
      }
    } finally {
      this.pending.delete(name);
    }
  }
}

async function isSocket(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isSocket();
  } catch {
    return false;
  }
}

/** A server is listening on the socket (a stale file refuses the connection). */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect(path);
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
    sock.setTimeout(1000, () => done(false));
  });
}
