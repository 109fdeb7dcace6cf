import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { CONTROL_OWNER_ENV, ownMark } from './orphans';
import { EventEmitter } from 'node:events';
import { ControlParser, type ControlEvent } from './control-parser';
import { commandLine } from './quote';

/** How long a client may take to leave after `detach-client` before it is killed. */
const CLOSE_GRACE_MS = 2_000;

/**
 * Seconds a pane's output may wait unread for this client before tmux pauses the pane for it
 * (tmux's `pause-after`; it then says `%pause`, drops that output, and the client goes on with
 * the pane and has it read anew). A bridge that reads, but more slowly than a pane prints, then
 * never slows the agent down for longer, and tmux holds no more than that much of its output.
 */
export const PAUSE_AFTER_S = 5;

/** Whether `setpriv --pdeathsig` runs here (util-linux 2.33 and later), asked once. */
let deathSignal: boolean | undefined;

/**
 * A client's command line, under `setpriv --pdeathsig KILL` where there is one: the kernel ends
 * the client as its bridge dies. tmux 3.3a keeps a client whose bridge died with its output
 * unwritten attached for good (it waits for that output to drain, server_client_check_exit),
 * and a pane whose only clients are such control clients is no longer read: the agent in it
 * stopped at its next draw until a bridge started again and ended the client (`orphans.ts`).
 * A client that is gone is dropped at once, its queued output with it.
 */
export function clientCommand(argv: readonly string[]): string[] {
  deathSignal ??= spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
  return deathSignal ? ['setpriv', '--pdeathsig', 'KILL', '--', ...argv] : [...argv];
}

/**
 * The client's command line, run with its input on the same socket as its output (`sh` makes
 * fd 0 a copy of fd 1, then execs tmux; the pid stays the client's). tmux reads a control
 * client's input and writes its output on descriptors of its own. Were they two sockets, a
 * bridge killed with -9 would close them one after the other as the kernel ends it: tmux could
 * read the end of the input (and mark the client exiting) while the output still had a reader,
 * and then write that client's queued `%output`, which tmux 3.3a does with the data already
 * dropped: `fatal: not enough data`, the whole server and every pane ended (see close()). One
 * socket ends at once: once its input has ended, no write to it can succeed.
 */
export function oneSocket(argv: readonly string[]): string[] {
  return ['sh', '-c', 'exec "$@" <&1', 'sh', ...argv];
}

export class TmuxCommandError extends Error {
  constructor(
    readonly command: string,
    readonly lines: string[],
  ) {
    super(`tmux: '${command}' failed: ${lines.join(' ') || 'no reason given'}`);
  }
}

interface Pending {
  command: string;
  resolve: (lines: string[]) => void;
  reject: (err: Error) => void;
  /** The batch it was written in: tmux skips the rest of a batch after a failed command. */
  batch?: object;
}

export interface ControlClientEvents {
  output: [paneId: string, data: string];
  notification: [name: string, args: string[]];
  exit: [reason: string];
}

/**
 * One persistent control-mode client (`tmux -C attach-session`). Commands are written as
 * lines and answered in order; notifications arrive between replies. It is the only place
 * that spawns `tmux -C`, so the rest of the bridge never parses tmux's own protocol.
 */
export class ControlClient extends EventEmitter<ControlClientEvents> {
  private readonly child: ChildProcess;
  /** The one socket this client's commands go out on and tmux's replies come back on ({@link oneSocket}). */
  private readonly io: Socket;
  private readonly parser = new ControlParser();
  private readonly queue: Pending[] = [];
  private buffer = '';
  private closed = false;
  private exitReason = '';
  /**
   * Lines written before tmux answered the attach. tmux reads a control client's input from the
   * moment the client has said who it is, and runs the attach (the client's own command) only
   * when the next message arrives: a line written at once ran before it, with no session, in 3
   * starts of 4 here. So nothing is written until the attach has answered.
   */
  private held: string[] | null = [];
  readonly ready: Promise<void>;

  constructor(
    readonly socketPath: string,
    readonly target: string,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    super();
    // ignore-size: this client must never resize the user's windows.
    const [cmd, ...args] = clientCommand(oneSocket(['tmux', '-S', socketPath, '-C', 'attach-session', '-t', target, '-f', `ignore-size,pause-after=${PAUSE_AFTER_S}`]));
    this.child = spawn(cmd!, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Which bridge started it: a bridge that starts ends the clients of one that died (./orphans).
      env: { ...env, TMUX: undefined, [CONTROL_OWNER_ENV]: ownMark() ?? undefined },
    });
    // Node's end of a child's stdout is a socket, as writable as it is readable.
    this.io = this.child.stdout as Socket;
    this.io.setEncoding('utf8');
    this.io.on('data', (chunk: string) => this.onData(chunk));
    this.io.on('error', () => undefined); // EPIPE when tmux exits first; 'close' reports it
    let stderr = '';
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => (stderr += chunk));
    this.child.on('error', (err) => this.finish(`could not start tmux: ${err.message}`));
    this.child.on('close', (code) => this.finish(this.exitReason || stderr.trim() || `tmux client exited (${code})`));
    // Written once the attach has answered (held); answering a no-op proves the client is live.
    this.ready = this.command(['display-message', '-p', 'ok']).then(() => undefined);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Run one tmux command through this client; resolves with its output lines. */
  command(args: readonly string[]): Promise<string[]> {
    const line = commandLine(args);
    if (this.closed) return Promise.reject(new Error(`tmux: client for ${this.target} is closed`));
    return new Promise((resolve, reject) => {
      this.queue.push({ command: line, resolve, reject });
      this.write(line);
    });
  }

  /**
   * Run several commands as one batch: one command line, its commands joined by `;`, which
   * tmux parses as one list and runs back to back from this client's queue, so no other
   * client's keys (a person typing, another `send-keys`) reach a pane between them. Lines
   * written together are not enough: tmux reads a client's input in chunks, and a chunk can
   * end between two lines (seen: a person's keys landed between a paste and `select-pane -d`,
   * 2026-12-04). Each command still answers on its own; when one fails tmux skips the rest,
   * which then fail here too. Resolves with each one's output.
   */
  commands(list: readonly (readonly string[])[]): Promise<string[][]> {
    const lines = list.map(commandLine);
    if (this.closed) return Promise.reject(new Error(`tmux: client for ${this.target} is closed`));
    const batch = {};
    const replies = lines.map((command) => new Promise<string[]>((resolve, reject) => this.queue.push({ command, resolve, reject, batch })));
    this.write(lines.join(' ; '));
    return Promise.all(replies);
  }

  private write(line: string): void {
    if (this.held) this.held.push(line);
    else this.io.write(`${line}\n`);
  }

  /**
   * Detaches with tmux's own `detach-client`, never with an empty line or the end of its input.
   * tmux 3.3a marks a client that ends its input as exiting in the middle of a turn of its loop,
   * with the client's `%output` still queued; a pane read later in the same turn moves that
   * client past the queued output, and writing the output then ends the whole server, every pane
   * with it (`fatal: not enough data`, control.c). The end of this process's input comes too when
   * the `tmux` process is killed, as Node closes a child's stdin once it exits. A command runs
   * between two turns, and the same pass drops the client's queued output before any pane is
   * read (test/control-close.test.ts). A client that is not gone after a while is killed.
   */
  close(): void {
    if (this.closed) return;
    this.command(['detach-client']).catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), CLOSE_GRACE_MS);
    timer.unref();
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      const ev = this.parser.push(line);
      if (ev) this.dispatch(ev);
    }
  }

  private dispatch(ev: ControlEvent): void {
    switch (ev.kind) {
      case 'reply': {
        if (!ev.fromClient) {
          // The attach's own answer. A failed attach ends the client, and what waits with it.
          if (this.held && ev.ok) {
            for (const line of this.held) this.io.write(`${line}\n`);
            this.held = null;
          } else if (this.held) this.exitReason = ev.lines.join(' ');
          return;
        }
        const pending = this.queue.shift();
        if (!pending) return;
        if (ev.ok) pending.resolve(ev.lines);
        else {
          pending.reject(new TmuxCommandError(pending.command, ev.lines));
          // tmux drops the rest of the failed command's batch: no reply will come for them.
          while (pending.batch && this.queue[0]?.batch === pending.batch) {
            const skipped = this.queue.shift()!;
            skipped.reject(new TmuxCommandError(skipped.command, [`not run: '${pending.command}' before it in the batch failed`]));
          }
        }
        return;
      }
      case 'output':
        this.emit('output', ev.paneId, ev.data);
        return;
      case 'notification':
        if (ev.name === 'exit') this.exitReason = ev.args.join(' ') || 'detached';
        // This client fell behind on a pane (PAUSE_AFTER_S): go on with it, and read it anew,
        // as what it drew meanwhile is not sent.
        if (ev.name === 'pause' && /^%\d+$/.test(ev.args[0] ?? '')) {
          this.command(['refresh-client', '-A', `${ev.args[0]!}:continue`]).catch(() => undefined);
          this.emit('output', ev.args[0]!, '');
        }
        this.emit('notification', ev.name, ev.args);
        return;
    }
  }

  private finish(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error(`tmux: client for ${this.target} closed: ${reason}`));
    this.emit('exit', reason);
  }
}
