import { EventEmitter } from 'node:events';
import type { PaneScreen } from '@collie/protocol';
import { OutputWaiters } from './output-waiters';
import { paneId } from './pane-view';
import { readPaneOnce } from './read-pane';
import { reconcile } from './reconcile';
import { seen } from './state-engine';
import { publishView, screenFrame, type PaneNow, type Tracked, type TrackerCore, type TrackerDeps } from './tracked-pane';

export type { PaneNow, TrackerDeps } from './tracked-pane';

/** Output is gathered this long before a pane is read, so one burst costs one read. */
export const COALESCE_MS = 8;
/** A pane that prints without pause is read at most this often. */
export const MIN_READ_INTERVAL_MS = 40;

/**
 * Keeps the panes of one tmux server: structure from control-mode notifications, each
 * pane's screen read when it prints (coalesced), its state stepped by the engine, and
 * changes published to the hub. Nothing here runs on a timer except a recheck the engine
 * asked for.
 */
export class PaneTracker extends EventEmitter<{ frame: [PaneScreen] }> {
  private readonly panes = new Map<string, Tracked>();
  private readonly watchers = new Map<string, number>();
  private structure$: Promise<void> | null = null;
  private structureAgain = false;
  private stopped = false;
  private readonly now: () => number;
  private readonly onStructure = () => this.syncStructure();
  private readonly outputs = new OutputWaiters();
  private readonly onOutput = (tmuxId: string) => {
    this.outputs.fire(tmuxId);
    this.schedule(tmuxId);
  };
  /** A session's panes drew with no control client of it attached (yet): read them again now. */
  private readonly onUnstreamed = (sessionId: string) => {
    for (const [tmuxId, t] of this.panes) if (t.info.sessionId === sessionId) this.schedule(tmuxId, 0);
  };
  /** What reconcile.ts and read-pane.ts work through. */
  private readonly core: TrackerCore;

  constructor(private readonly d: TrackerDeps) {
    super();
    this.now = d.now ?? Date.now;
    this.core = {
      d,
      name: d.server.name,
      panes: this.panes,
      stopped: () => this.stopped,
      now: () => this.now(),
      tokenKey: (tmuxId) => this.tokenKey(tmuxId),
      read: (tmuxId) => this.read(tmuxId),
      schedule: (tmuxId, delay) => this.schedule(tmuxId, delay),
      frameChanged: (tmuxId, t) => {
        if (this.watchers.has(tmuxId)) this.emit('frame', this.frameOf(tmuxId, t));
      },
    };
  }

  get name(): string {
    return this.d.server.name;
  }

  async start(): Promise<void> {
    this.d.server.on('structure', this.onStructure);
    this.d.server.on('output', this.onOutput);
    this.d.server.on('attached', this.onUnstreamed);
    this.d.server.on('waiting', this.onUnstreamed);
    await this.syncStructure();
  }

  /** Forget every pane (the server is gone); publishes their removal. */
  stop(): void {
    this.stopped = true;
    this.d.server.off('structure', this.onStructure);
    this.d.server.off('output', this.onOutput);
    this.d.server.off('attached', this.onUnstreamed);
    this.d.server.off('waiting', this.onUnstreamed);
    for (const [tmuxId, t] of this.panes) {
      if (t.timer) clearTimeout(t.timer);
      if (t.view) this.d.hub.publish({ type: 'pane.removed', id: paneId(this.name, tmuxId) });
    }
    this.panes.clear();
  }

  /** Run a tmux command on this pane's server (control mode). */
  command(args: readonly string[]): Promise<string[]> {
    return this.d.server.command(args);
  }

  /** The server's sessions, id and name. */
  sessions(): Promise<{ id: string; name: string }[]> {
    return this.d.server.listSessions();
  }

  /** Several tmux commands as one batch no other client's keys come between. */
  commands(list: readonly (readonly string[])[]): Promise<string[][]> {
    return this.d.server.commands(list);
  }

  /** Resolves true at the pane's next output (the agent drew something), false after `ms` without. */
  nextOutput(tmuxId: string, ms: number): Promise<boolean> {
    return this.outputs.next(tmuxId, ms);
  }

  has(tmuxId: string): boolean {
    return this.panes.has(tmuxId);
  }

  /**
   * Read a pane now (after any read in flight), for a decision that must not rest on a
   * stale screen: a send, an answer. Null when the pane is gone.
   */
  async readNow(tmuxId: string): Promise<PaneNow | null> {
    const t = this.panes.get(tmuxId);
    if (!t) return null;
    await this.read(tmuxId); // a read in flight runs once more after itself: this one is fresh
    // A pane that could not be read now has closed: its last reading is not the pane now.
    if (this.panes.get(tmuxId) !== t || !t.reading || t.closed) return null;
    return { harness: t.harness, state: t.engine.state, reading: t.reading, card: t.card, cardSince: t.cardSince, command: t.info.command, lines: t.lines };
  }

  /**
   * The person named the pane (Rename on the phone), or took the name back (null): the name is
   * its label everywhere the label is used, kept with its token, until the pane ends.
   */
  async setName(tmuxId: string, name: string | null): Promise<boolean> {
    const t = this.panes.get(tmuxId);
    if (!t) return false;
    this.d.tokens.setName(this.tokenKey(tmuxId), name);
    t.label = name ?? (await this.d.labelOf(t.info));
    if (this.panes.get(tmuxId) === t) publishView(this.core, tmuxId, t);
    return true;
  }

  /** Someone opened the pane: a finished turn has been seen. */
  markSeen(tmuxId: string): void {
    const t = this.panes.get(tmuxId);
    if (!t) return;
    t.engine = seen(t.engine, this.now());
    publishView(this.core, tmuxId, t);
  }

  /**
   * Start sending `frame` events for a pane (on each change; the caller sends the current
   * frame itself); returns the function that stops them.
   */
  watchScreen(tmuxId: string): () => void {
    this.watchers.set(tmuxId, (this.watchers.get(tmuxId) ?? 0) + 1);
    if (!this.panes.get(tmuxId)?.lines.length) this.schedule(tmuxId, 0);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const n = (this.watchers.get(tmuxId) ?? 1) - 1;
      if (n <= 0) this.watchers.delete(tmuxId);
      else this.watchers.set(tmuxId, n);
    };
  }

  /** The current screen of a pane, as a frame (for a new subscriber). */
  currentFrame(tmuxId: string): PaneScreen | null {
    const t = this.panes.get(tmuxId);
    return t && t.lines.length ? this.frameOf(tmuxId, t) : null;
  }

  syncStructure(): Promise<void> {
    if (this.structure$) {
      this.structureAgain = true;
      return this.structure$;
    }
    this.structure$ = (async () => {
      do {
        this.structureAgain = false;
        await reconcile(this.core);
      } while (this.structureAgain && !this.stopped);
    })().finally(() => (this.structure$ = null));
    return this.structure$;
  }

  private tokenKey(tmuxId: string): string {
    return `${this.name}:${this.d.server.info?.startTime ?? 0}:${tmuxId}`;
  }

  private schedule(tmuxId: string, delay?: number): void {
    const t = this.panes.get(tmuxId);
    if (!t || t.timer || this.stopped) return;
    const wait = delay ?? Math.max(COALESCE_MS, t.lastRead + MIN_READ_INTERVAL_MS - this.now());
    t.timer = setTimeout(() => {
      t.timer = null;
      void this.read(tmuxId);
    }, wait);
  }

  /** Read one pane; reads of one pane never overlap, a request during one runs after it. */
  private read(tmuxId: string): Promise<void> {
    const t = this.panes.get(tmuxId);
    if (!t) return Promise.resolve();
    if (t.reading$) {
      t.again = true;
      return t.reading$;
    }
    t.reading$ = (async () => {
      do {
        t.again = false;
        await readPaneOnce(this.core, tmuxId, t);
      } while (t.again && this.panes.get(tmuxId) === t);
    })().finally(() => (t.reading$ = null));
    return t.reading$;
  }

  private frameOf(tmuxId: string, t: Tracked): PaneScreen {
    return screenFrame(this.name, tmuxId, t, this.d.redact);
  }
}
