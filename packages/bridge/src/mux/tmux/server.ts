import { execFile } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { promisify } from 'node:util';
import { ControlClient } from './control-client';
import { orphanedClients } from './orphans';
import { LEFT_OFF_FORMAT, inputOnCommands, inputsLeftOff } from './left-off';
import { CURSOR_FORMAT, PANE_FORMAT, SERVER_FORMAT, SESSION_FORMAT, parseCursorLine, parsePaneLine, parseServerLine, parseSessionLine, type TmuxPane, type TmuxServerInfo } from './formats';

const run = promisify(execFile);

/** Notifications after which the set of sessions, windows or panes may differ. */
const STRUCTURE = new Set([
  'sessions-changed',
  'session-renamed',
  'window-add',
  'window-close',
  'window-renamed',
  'unlinked-window-add',
  'unlinked-window-close',
  'unlinked-window-renamed',
  'layout-change',
  'window-pane-changed',
  'session-window-changed',
]);

export interface TmuxServerEvents {
  structure: [];
  output: [paneId: string];
  /**
   * A control client is attached to a session: `%output` of its panes comes from now on. What
   * they drew between a read and this moment came to nobody, so their screens are read again.
   */
  attached: [sessionId: string];
  /**
   * A session waits for sessions to stop coming before its client is attached: its panes'
   * output comes to nobody meanwhile, so they are read now (every {@link WAITING_READ_MS}).
   */
  waiting: [sessionId: string];
  gone: [reason: string];
}

export interface PaneCapture {
  lines: string[];
  cursor: { x: number; y: number } | null;
}

/** How long no session may come or go before the server's new sessions are attached. */
export const SESSIONS_QUIET_MS = 1000;

const LIST_SESSION_IDS = ['list-sessions', '-F', '#{session_id}'];

/** The session ids (`$<n>`) among tmux's lines. */
const sessionIds = (lines: readonly string[]): string[] => lines.filter((s) => /^\$\d+$/.test(s));

/** How often the panes of a session still waiting for its client are read (the 250 ms of ADR 0001). */
export const WAITING_READ_MS = 250;

/**
 * One tmux server. tmux sends `%output` to a control client only for panes in windows of
 * the session it is attached to (tmux 3.3a, control.c), so the server keeps one
 * control-mode client per session: a fixed set of long-lived processes, none spawned on a
 * timer. Commands go through any live client.
 */
export class TmuxServer extends EventEmitter<TmuxServerEvents> {
  private readonly clients = new Map<string, ControlClient>();
  private reconciling: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  info: TmuxServerInfo | null = null;

  constructor(
    readonly name: string,
    readonly socketPath: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    super();
  }

  get connected(): boolean {
    return this.live() !== undefined;
  }

  /** Attach to every session; rejects when no server answers on the socket. */
  async start(): Promise<void> {
    const ids = await this.sessionIdsByProcess();
    await this.attachAll(ids);
    if (!this.live()) throw new Error(`tmux: no session on ${this.socketPath} could be attached`);
    this.info = parseServerLine((await this.command(['display-message', '-p', SERVER_FORMAT]))[0]);
    await this.endOrphans();
    await this.endInputsLeftOff();
  }

  /** Switches on the input of the panes a bridge that no longer runs left off (./left-off). */
  private async endInputsLeftOff(): Promise<void> {
    const lines = await this.command(['list-panes', '-a', '-F', LEFT_OFF_FORMAT]).catch(() => []);
    for (const pane of inputsLeftOff(lines)) await this.commands(inputOnCommands(pane)).catch(() => undefined);
  }

  /** Ends the control clients a bridge that no longer runs left on this server (./orphans). */
  private async endOrphans(): Promise<void> {
    const pids = (await this.command(['list-clients', '-F', '#{client_pid}']).catch(() => [])).map(Number).filter((n) => Number.isInteger(n) && n > 0);
    for (const pid of orphanedClients(pids)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.stopReadingWaiting();
    for (const c of this.clients.values()) c.close();
    this.clients.clear();
  }

  command(args: readonly string[]): Promise<string[]> {
    const client = this.live();
    if (!client) return Promise.reject(new Error(`tmux: server ${this.name} has no live client`));
    return client.command(args);
  }

  /** Several commands as one batch that no other client's keys come between (`ControlClient.commands`). */
  commands(list: readonly (readonly string[])[]): Promise<string[][]> {
    const client = this.live();
    if (!client) return Promise.reject(new Error(`tmux: server ${this.name} has no live client`));
    return client.commands(list);
  }

  async listPanes(): Promise<TmuxPane[]> {
    const lines = await this.command(['list-panes', '-a', '-F', PANE_FORMAT]);
    return lines.map(parsePaneLine).filter((p): p is TmuxPane => p !== null);
  }

  /** Every session's id and name (names decoded whole, whatever bytes they hold). */
  async listSessions(): Promise<{ id: string; name: string }[]> {
    const lines = await this.command(['list-sessions', '-F', SESSION_FORMAT]);
    return lines.map(parseSessionLine).filter((s): s is { id: string; name: string } => s !== null);
  }

  async describePane(paneId: string): Promise<TmuxPane | null> {
    const lines = await this.command(['display-message', '-p', '-t', paneId, PANE_FORMAT]);
    return parsePaneLine(lines[0] ?? '');
  }

  /** The visible screen with its SGR escapes (capture-pane -e), and the cursor. */
  async capture(paneId: string): Promise<PaneCapture> {
    const [lines, cursor] = await Promise.all([
      this.command(['capture-pane', '-p', '-e', '-t', paneId]),
      this.command(['display-message', '-p', '-t', paneId, CURSOR_FORMAT]),
    ]);
    return { lines, cursor: parseCursorLine(cursor[0]) };
  }

  private live(): ControlClient | undefined {
    for (const c of this.clients.values()) if (!c.isClosed) return c;
    return undefined;
  }

  /** The one process call: before any client is attached there is nobody to ask. */
  private async sessionIdsByProcess(): Promise<string[]> {
    const { stdout } = await run('tmux', ['-S', this.socketPath, ...LIST_SESSION_IDS], {
      env: { ...this.env, TMUX: undefined },
      timeout: 5000,
    });
    return sessionIds(stdout.split('\n'));
  }

  private async attachAll(ids: string[]): Promise<void> {
    const wanted = new Set(ids);
    for (const [id, c] of this.clients) {
      if (!wanted.has(id)) {
        c.close();
        this.clients.delete(id);
      }
    }
    const fresh = ids.filter((id) => !this.clients.has(id)).map((id) => this.attach(id));
    await Promise.allSettled(fresh);
  }

  private attach(sessionId: string): Promise<void> {
    const client = new ControlClient(this.socketPath, sessionId, this.env);
    this.clients.set(sessionId, client);
    client.on('output', (paneId) => this.emit('output', paneId));
    client.on('notification', (name) => {
      if (name === 'sessions-changed') this.reconcileWhenQuiet();
      if (STRUCTURE.has(name)) this.emit('structure');
    });
    client.on('exit', () => {
      if (this.clients.get(sessionId) === client) this.clients.delete(sessionId);
      if (this.stopped) return;
      if (this.clients.size === 0) this.emit('gone', 'tmux server closed');
      else this.reconcileWhenQuiet();
    });
    return client.ready.then(
      () => void this.emit('attached', sessionId),
      () => {
        if (this.clients.get(sessionId) === client) this.clients.delete(sessionId);
      },
    );
  }

  private quietTimer: NodeJS.Timeout | null = null;
  private waitingTimer: NodeJS.Timeout | null = null;

  /**
   * Sessions come and go: attach once they have stopped for {@link SESSIONS_QUIET_MS}. tmux 3.3a's
   * server crashes (a NULL read in its session-created notification) when a session is made,
   * closed or renamed while a control client is between its first identify message and its last
   * (tmux fixed it in 3.7), so sessions made by a script are let finish first. Under load a
   * script's sessions came more than 250 ms apart, and the next one met the attach
   * (new-session-read.test.ts). Meanwhile the waiting sessions' panes are read on a timer
   * through the clients already attached (`waiting`), and once more when attached (`attached`).
   */
  private reconcileWhenQuiet(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null;
      this.stopReadingWaiting();
      this.reconcile();
    }, SESSIONS_QUIET_MS);
    this.waitingTimer ??= setInterval(() => void this.readWaiting(), WAITING_READ_MS);
  }

  private stopReadingWaiting(): void {
    if (this.waitingTimer) clearInterval(this.waitingTimer);
    this.waitingTimer = null;
  }

  private async readWaiting(): Promise<void> {
    const ids = sessionIds(await this.command(LIST_SESSION_IDS).catch((): string[] => []));
    for (const id of ids) if (!this.clients.has(id) && this.waitingTimer) this.emit('waiting', id);
  }

  /** Bring the set of attached clients in line with the server's sessions. */
  private reconcile(): void {
    if (this.reconciling) {
      this.again = true;
      return;
    }
    this.reconciling = (async () => {
      do {
        this.again = false;
        const live = this.live();
        if (!live || this.stopped) return;
        try {
          const ids = sessionIds(await live.command(LIST_SESSION_IDS));
          await this.attachAll(ids);
        } catch {
          // The client died under us; its exit handler decides what happens next.
        }
      } while (this.again);
    })().finally(() => {
      this.reconciling = null;
      this.emit('structure');
    });
  }
}
