import type { DialogCard, Harness, Pane, ScreenReading } from '@collie/protocol';
import type { TmuxPane } from '../mux/tmux';
import type { EngineState } from './state-engine';

export interface PaneFacts {
  server: string;
  machine: string;
  info: TmuxPane;
  token: string;
  harness: Harness;
  label: string;
  /** `label` is the name given with Rename. */
  named: boolean;
  reading: ScreenReading | null;
  card: DialogCard | null;
  engine: EngineState;
}

/** `<member>/<pane>#<token>`; panes of the default server need no server prefix. */
export function paneAddress(server: string, tmuxId: string, token: string, member = 'local'): string {
  return `${member}/${server === 'default' ? '' : `${server}:`}${tmuxId}#${token}`;
}

export function paneId(server: string, tmuxId: string): string {
  return `${server}:${tmuxId}`;
}

/** The phone's view of one pane, with every text that came off the screen masked. */
export function paneView(f: PaneFacts, redact: (s: string) => string): Pane {
  const { info } = f;
  return {
    id: paneId(f.server, info.paneId),
    address: paneAddress(f.server, info.paneId, f.token),
    token: f.token,
    server: f.server,
    tmuxId: info.paneId,
    machine: f.machine,
    sessionId: info.sessionId,
    sessionName: redact(info.sessionName),
    windowId: info.windowId,
    windowIndex: info.windowIndex,
    windowName: redact(info.windowName),
    paneIndex: info.paneIndex,
    active: info.active,
    cwd: redact(info.cwd),
    title: redact(info.title),
    command: info.command,
    pid: info.pid,
    width: info.width,
    height: info.height,
    harness: f.harness,
    label: redact(f.label),
    named: f.named,
    state: f.engine.state,
    since: f.engine.since,
    dialog: f.reading?.dialog ?? null,
    card: f.card === null ? null : maskCard(f.card, redact),
    draft: f.reading?.draft == null ? null : redact(f.reading.draft),
    // Always a key, so that `sameView` sees it come and go.
    reason: f.reading?.reason,
  };
}

/** Whether two views differ in anything a client shows (field by field, no JSON churn). */
export function sameView(a: Pane, b: Pane): boolean {
  for (const k of Object.keys(a) as (keyof Pane)[]) {
    if (k === 'card') {
      if (a.card?.signature !== b.card?.signature || !sameChecks(a.card, b.card)) return false;
    } else if (a[k] !== b[k]) return false;
  }
  return true;
}

/** Ticked boxes change a card without changing its ask (its signature). */
function sameChecks(a: DialogCard | null, b: DialogCard | null): boolean {
  return (a?.options ?? []).every((o, i) => o.checked === b?.options[i]?.checked);
}

/** A card's texts come off the screen too: mask them like everything else shown. */
function maskCard(card: DialogCard, redact: (s: string) => string): DialogCard {
  return {
    ...card,
    title: redact(card.title),
    body: card.body.map(redact),
    question: redact(card.question),
    options: card.options.map((o) => ({ ...o, label: redact(o.label), description: o.description === null ? null : redact(o.description) })),
    tabs: card.tabs.map((t) => ({ ...t, label: redact(t.label) })),
  };
}
