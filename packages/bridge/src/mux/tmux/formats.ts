/**
 * The tmux formats the bridge asks for, and their parsing. Fields are joined with the
 * ASCII unit separator, which tmux copies through from the format string as is and which
 * no shell title or path is expected to hold; a row that does not split into exactly the
 * expected fields is dropped, never guessed.
 */
const SEP = '\x1f';

const PANE_FIELDS = [
  'session_id',
  'session_name',
  'window_id',
  'window_index',
  'window_name',
  'window_active',
  'pane_id',
  'pane_index',
  'pane_active',
  'pane_pid',
  'pane_current_command',
  'pane_current_path',
  'pane_width',
  'pane_height',
  'pane_dead',
  'pane_title',
] as const;

export const PANE_FORMAT = PANE_FIELDS.map((f) => `#{${f}}`).join(SEP);

/** One pane as tmux describes it. */
export interface TmuxPane {
  sessionId: string;
  sessionName: string;
  windowId: string;
  windowIndex: number;
  windowName: string;
  paneId: string;
  paneIndex: number;
  active: boolean;
  pid: number;
  command: string;
  cwd: string;
  width: number;
  height: number;
  dead: boolean;
  title: string;
}

export function parsePaneLine(line: string): TmuxPane | null {
  const f = line.split(SEP);
  if (f.length !== PANE_FIELDS.length) return null;
  const [sessionId, sessionName, windowId, windowIndex, windowName, windowActive, paneId, paneIndex, paneActive, pid, command, cwd, width, height, dead, title] = f as [string, ...string[]];
  if (!/^%\d+$/.test(paneId!)) return null;
  const num = (s: string | undefined): number => {
    const n = Number(s);
    return Number.isFinite(n) ? n : 0;
  };
  return {
    sessionId,
    sessionName: sessionName!,
    windowId: windowId!,
    windowIndex: num(windowIndex),
    windowName: windowName!,
    paneId: paneId!,
    paneIndex: num(paneIndex),
    active: windowActive === '1' && paneActive === '1',
    pid: num(pid),
    command: command!,
    cwd: cwd!,
    width: num(width),
    height: num(height),
    dead: dead === '1',
    title: title!,
  };
}

export const SERVER_FORMAT = ['#{pid}', '#{start_time}', '#{version}'].join(SEP);

export interface TmuxServerInfo {
  pid: number;
  startTime: number;
  version: string;
}

export function parseServerLine(line: string | undefined): TmuxServerInfo | null {
  const f = (line ?? '').split(SEP);
  if (f.length !== 3) return null;
  const pid = Number(f[0]);
  const startTime = Number(f[1]);
  if (!Number.isInteger(pid) || !Number.isFinite(startTime)) return null;
  return { pid, startTime, version: f[2]! };
}

export const CURSOR_FORMAT = ['#{cursor_x}', '#{cursor_y}', '#{cursor_flag}', '#{alternate_on}'].join(SEP);

export function parseCursorLine(line: string | undefined): { x: number; y: number } | null {
  const f = (line ?? '').split(SEP);
  if (f.length !== 4 || f[2] !== '1') return null;
  const x = Number(f[0]);
  const y = Number(f[1]);
  return Number.isInteger(x) && Number.isInteger(y) ? { x, y } : null;
}
