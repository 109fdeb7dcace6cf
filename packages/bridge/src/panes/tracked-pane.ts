import type { DialogCard, Harness, Pane, PaneScreen, PaneState, ScreenReading } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import type { TmuxPane, TmuxServer } from '../mux/tmux';
import type { Redactor } from '../redact';
import { paneId, paneView, sameView } from './pane-view';
import type { EngineState } from './state-engine';
import type { TokenStore } from './tokens';

// What a pane tracker (pane-tracker.ts) keeps of each pane, and what it lends the parts that
// work on its panes: the reconcile of its structure (reconcile.ts) and the read of one pane
// (read-pane.ts).

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

export interface Tracked {
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

/** The tracker as its parts see it. */
export interface TrackerCore {
  readonly d: TrackerDeps;
  /** The tmux server's name. */
  readonly name: string;
  readonly panes: Map<string, Tracked>;
  stopped(): boolean;
  now(): number;
  /** The pane's key in the token store: server, server start, tmux id. */
  tokenKey(tmuxId: string): string;
  /** Read the pane (after any read in flight). */
  read(tmuxId: string): Promise<void>;
  /** Read the pane after `delay` ms, or when its output has settled. */
  schedule(tmuxId: string, delay?: number): void;
  /** The pane's screen changed: a `frame` event to its watchers. */
  frameChanged(tmuxId: string, t: Tracked): void;
}

/** A pane just found, not yet read. */
export function newTracked(info: TmuxPane, label: string, now: number): Tracked {
  return {
    info,
    harness: 'shell',
    procHarness: 'shell',
    harnessKey: '',
    label,
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
  };
}

/** Publishes the pane's view to the hub when it changed (added the first time). */
export function publishView(c: TrackerCore, tmuxId: string, t: Tracked): void {
  if (c.stopped()) return;
  const { d } = c;
  const token = d.tokens.tokenFor(c.tokenKey(tmuxId));
  const view = paneView(
    { server: c.name, machine: d.machine, info: t.info, token, harness: t.harness, label: t.label, named: d.tokens.nameOf(c.tokenKey(tmuxId)) !== undefined, reading: t.reading, card: t.card, engine: t.engine },
    d.redact,
  );
  if (t.view && sameView(t.view, view)) return;
  const added = t.view === null;
  t.view = view;
  d.hub.publish(added ? { type: 'pane.added', pane: view } : { type: 'pane.updated', pane: view });
}

/** The pane's screen as a frame, redacted. */
export function screenFrame(server: string, tmuxId: string, t: Tracked, redact: Redactor): PaneScreen {
  return {
    type: 'pane.screen',
    id: paneId(server, tmuxId),
    frame: t.frame,
    width: t.info.width,
    height: t.info.height,
    cursor: t.cursor,
    lines: redact.lines(t.lines, { width: t.info.width }),
  };
}
