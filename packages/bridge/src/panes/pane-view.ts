import type { Harness, Pane, ScreenReading } from '@collie/protocol';
import type { TmuxPane } from '../mux/tmux';
import type { EngineState } from './state-engine';

export interface PaneFacts {
  server: string;
  machine: string;
  info: TmuxPane;
  token: string;
  harness: Harness;
  label: string;
  reading: ScreenReading | null;
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
    state: f.engine.state,
    since: f.engine.since,
    dialog: f.reading?.dialog ?? null,
    draft: f.reading?.draft == null ? null : redact(f.reading.draft),
  };
}

/** Whether two views differ in anything a client shows (field by field, no JSON churn). */
export function sameView(a: Pane, b: Pane): boolean {
  for (const k of Object.keys(a) as (keyof Pane)[]) if (a[k] !== b[k]) return false;
  return true;
}
