import { EventEmitter } from 'node:events';
import type { DialogCard, Harness, Pane, PaneScreen, PaneState, ScreenReading } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import { readScreen } from '../harness';
import { readCard } from '../harness/card';
import type { TmuxPane, TmuxServer } from '../mux/tmux';
import type { Redactor } from '../redact';
import { harnessFromFacts } from './pane-facts';
import { paneId, paneView, sameView } from './pane-view';
import { seen, step, type EngineState } from './state-engine';
import type { TokenStore } from './tokens';

/** A pane as a send or an answer sees it, just read. */
export interface PaneNow {
  harness: Harness;
  /** The engine's state: `working` until a turn's end has held (see IDLE_CONFIRM_MS). */
  state: PaneState;
  reading: ScreenReading;
  card: DialogCard | null;
  cardSince: number;
  command: string;
  /** The screen this was read from (`capture-pane -e` lines): what a send's Enter guard holds the pane to (`send/enter-guard.ts`). */
  lines: readonly string[];
}

export interface TrackerDeps {
  server: TmuxServer;
  hub: EventHub;
  tokens: TokenStore;
  machine: string;
  redact: Redactor;
  harnessOf: (info: TmuxPane) => Promise<Harness>;
  labelOf: (info: TmuxPane) => Promise<string>;
  now?: () => number;
  /** After each read of a pane: what was read, of which agent in which process (for `unread-screens`). */
  onRead?: (harness: Harness, pid: number, reading: ScreenReading, screen: string, paneId: string) => void;
}

/** Output is gathered this long before a pane is read, so one burst costs one read. */
export const COALESCE_MS = 8;
/** A pane that prints without pause is read at most this often. */
export const MIN_READ_INTERVAL_MS = 40;

interface Tracked {
  info: TmuxPane;
  /** The last read found the pane closed (tmux no longer had it); structure removes it next. */
  closed?: boolean;
  harness: Harness;
  /** What the process tree says, re-read only when the pane's pid or command changes. */
  procHarness: Harness;
  harnessKey: string;
  label: string;
  reading: ScreenReading | null;
  card: DialogCard | null;
  /** When the card's ask first showed (an answer waits out the dialog's key-ignore window). */
  cardSince: number;
  engine: EngineState;
  view: Pane | null;
  lines: string[];
  cursor: { x: number; y: number } | null;
  frame: number;
  timer: NodeJS.Timeout | null;
  reading$: Promise<void> | null;
  again: boolean;
  lastRead: number;
}

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
  private readonly outputWaiters = new Map<string, Set<() => void>>();
  private readonly onOutput = (tmuxId: string) => {
    const waiters = this.outputWaiters.get(tmuxId);
    if (waiters) {
      this.outputWaiters.delete(tmuxId);
      for (const fire of waiters) fire();
    }
    this.schedule(tmuxId);
  };

  constructor(private readonly d: TrackerDeps) {
    super();
    this.now = d.now ?? Date.now;
  }

  get name(): string {
    return this.d.server.name;
  }

  async start(): Promise<void> {
    this.d.server.on('structure', this.onStructure);
    this.d.server.on('output', this.onOutput);
    await this.syncStructure();
  }

  /** Forget every pane (the server is gone); publishes their removal. */
  stop(): void {
    this.stopped = true;
    this.d.server.off('structure', this.onStructure);
    this.d.server.off('output', this.onOutput);
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
    return new Promise((resolve) => {
      const waiters = this.outputWaiters.get(tmuxId) ?? new Set<() => void>();
      this.outputWaiters.set(tmuxId, waiters);
      const done = (drawn: boolean) => {
        clearTimeout(timer);
        waiters.delete(fire);
        if (waiters.size === 0 && this.outputWaiters.get(tmuxId) === waiters) this.outputWaiters.delete(tmuxId);
        resolve(drawn);
      };
      const fire = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      waiters.add(fire);
    });
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
    if (this.panes.get(tmuxId) === t) this.publishView(tmuxId, t);
    return true;
  }

  /** Someone opened the pane: a finished turn has been seen. */
  markSeen(tmuxId: string): void {
    const t = this.panes.get(tmuxId);
    if (!t) return;
    t.engine = seen(t.engine, this.now());
    this.publishView(tmuxId, t);
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
        await this.reconcile();
      } while (this.structureAgain && !this.stopped);
    })().finally(() => (this.structure$ = null));
    return this.structure$;
  }

  private async reconcile(): Promise<void> {
    let list: TmuxPane[];
    try {
      list = await this.d.server.listPanes();
    } catch {
      return; // the server is going away; discovery reports it
    }
    if (this.stopped) return;
    const live = new Map(list.filter((p) => !p.dead).map((p) => [p.paneId, p]));
    for (const [tmuxId, t] of this.panes) {
      if (live.has(tmuxId)) continue;
      if (t.timer) clearTimeout(t.timer);
      this.panes.delete(tmuxId);
      if (t.view) this.d.hub.publish({ type: 'pane.removed', id: paneId(this.name, tmuxId) });
    }
    const fresh: Promise<void>[] = [];
    for (const [tmuxId, info] of live) {
      const t = this.panes.get(tmuxId);
      if (t) {
        t.info = info;
        this.publishView(tmuxId, t);
        continue;
      }
      const now = this.now();
      this.panes.set(tmuxId, {
        info,
        harness: 'shell',
        procHarness: 'shell',
        harnessKey: '',
        label: this.d.tokens.nameOf(this.tokenKey(tmuxId)) ?? info.title,
        reading: null,
        card: null,
        cardSince: 0,
        engine: { state: 'unknown', since: now, idleSeenAt: null },
        view: null,
        lines: [],
        cursor: null,
        frame: 0,
        timer: null,
        reading$: null,
        again: false,
        lastRead: 0,
      });
      fresh.push(this.read(tmuxId));
    }
    this.d.tokens.sweep(new Set([...live.keys()].map((id) => this.tokenKey(id))), this.now(), `${this.name}:`);
    await Promise.all(fresh);
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
        await this.readOnce(tmuxId, t);
      } while (t.again && this.panes.get(tmuxId) === t);
    })().finally(() => (t.reading$ = null));
    return t.reading$;
  }

  private async readOnce(tmuxId: string, t: Tracked): Promise<void> {
    t.lastRead = this.now();
    let info: TmuxPane | null;
    let capture;
    try {
      [info, capture] = await Promise.all([this.d.server.describePane(tmuxId), this.d.server.capture(tmuxId)]);
    } catch {
      t.closed = true; // the pane closed between the notification and the read; structure follows
      return;
    }
    t.closed = !info;
    if (!info || this.panes.get(tmuxId) !== t) return;
    t.info = info;
    const key = `${info.pid}:${info.command}`;
    if (key !== t.harnessKey) {
      t.procHarness = await this.d.harnessOf(info);
      t.harnessKey = key;
    }
    t.label = this.d.tokens.nameOf(this.tokenKey(tmuxId)) ?? (await this.d.labelOf(info));
    const screen = capture.lines.join('\n');
    t.harness = harnessFromFacts(t.procHarness, info.command, screen);
    const reading = readScreen(t.harness, screen);
    t.reading = reading;
    this.d.onRead?.(t.harness, info.pid, reading, screen, paneId(this.name, tmuxId));
    const card = reading.dialog === null ? null : readCard(t.harness, screen);
    if (card?.signature !== t.card?.signature) t.cardSince = this.now();
    t.card = card;
    const { next, recheckAt } = step(t.engine, reading, this.now());
    t.engine = next;
    if (recheckAt !== null) this.schedule(tmuxId, Math.max(0, recheckAt - this.now()));
    const changed = capture.lines.length !== t.lines.length || capture.lines.some((l, i) => l !== t.lines[i]) || capture.cursor?.x !== t.cursor?.x || capture.cursor?.y !== t.cursor?.y;
    t.lines = capture.lines;
    t.cursor = capture.cursor;
    this.publishView(tmuxId, t);
    if (changed) {
      t.frame++;
      if (this.watchers.has(tmuxId)) this.emit('frame', this.frameOf(tmuxId, t));
    }
  }

  private publishView(tmuxId: string, t: Tracked): void {
    if (this.stopped) return;
    const token = this.d.tokens.tokenFor(this.tokenKey(tmuxId));
    const view = paneView(
      { server: this.name, machine: this.d.machine, info: t.info, token, harness: t.harness, label: t.label, named: this.d.tokens.nameOf(this.tokenKey(tmuxId)) !== undefined, reading: t.reading, card: t.card, engine: t.engine },
      this.d.redact,
    );
    if (t.view && sameView(t.view, view)) return;
    const added = t.view === null;
    t.view = view;
    this.d.hub.publish(added ? { type: 'pane.added', pane: view } : { type: 'pane.updated', pane: view });
  }

  private frameOf(tmuxId: string, t: Tracked): PaneScreen {
    return {
      type: 'pane.screen',
      id: paneId(this.name, tmuxId),
      frame: t.frame,
      width: t.info.width,
      height: t.info.height,
      cursor: t.cursor,
      lines: this.d.redact.lines(t.lines, { width: t.info.width }),
    };
  }
}
