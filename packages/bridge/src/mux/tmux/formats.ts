/**
 * The tmux formats the bridge asks for, and their parsing. A row's fields are joined with
 * the ASCII unit separator (`\x1f`), and tmux prints each value as it is: a folder, a title,
 * a command or a name may hold a line break or a `\x1f` (a `cd` into a folder named so once
 * split one pane's row into a forged row of another pane). So every text field is asked for
 * through `textField`, which has tmux itself escape `~`, line break and `\x1f` as `~~`, `~n`
 * and `~u` (substitutions, `#{s/…/…/}`); `decodeText` undoes exactly that. `#{q:…}` cannot
 * serve: in tmux 3.3a it escapes shell characters but leaves a line break as it is. Not `%`:
 * `display-message` passes its format, substitutions included, through strftime.
 * Numbers and ids are checked against their shape; a row that does not split into exactly
 * the expected fields, or whose field does not fit, is dropped, never guessed.
 */
const SEP = '\x1f';

/** `#{name}` with `~`, line break and `\x1f` escaped by tmux: no byte of the value can end a row or a field. */
export function textField(name: string): string {
  return `#{s/~/~~/;s/\n/~n/;s/${SEP}/~u/:${name}}`;
}

const DECODE: Record<string, string> = { '~~': '~', '~n': '\n', '~u': SEP };

/** The value a `textField` was made of: the exact inverse of its escaping (every `~` there starts a pair). */
export function decodeText(field: string): string {
  return field.replace(/~[~nu]/g, (e) => DECODE[e]!);
}

/** Each field as tmux is asked for it: text through `textField`, ids and numbers as they are. */
const PANE_FIELDS = [
  ['session_id', /^\$\d+$/],
  ['session_name', 'text'],
  ['window_id', /^@\d+$/],
  ['window_index', /^\d+$/],
  ['window_name', 'text'],
  ['window_active', /^[01]$/],
  ['pane_id', /^%\d+$/],
  ['pane_index', /^\d+$/],
  ['pane_active', /^[01]$/],
  ['pane_pid', /^\d*$/],
  ['pane_current_command', 'text'],
  ['pane_current_path', 'text'],
  ['pane_width', /^\d+$/],
  ['pane_height', /^\d+$/],
  ['pane_dead', /^[01]?$/],
  ['pane_title', 'text'],
] as const;

export const PANE_FORMAT = PANE_FIELDS.map(([f, kind]) => (kind === 'text' ? textField(f) : `#{${f}}`)).join(SEP);

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
  const raw = line.split(SEP);
  if (raw.length !== PANE_FIELDS.length) return null;
  const f: string[] = [];
  for (const [i, [, kind]] of PANE_FIELDS.entries()) {
    const v = raw[i]!;
    if (kind !== 'text' && !kind.test(v)) return null;
    f.push(kind === 'text' ? decodeText(v) : v);
  }
  const [sessionId, sessionName, windowId, windowIndex, windowName, windowActive, paneId, paneIndex, paneActive, pid, command, cwd, width, height, dead, title] = f as [string, ...string[]];
  return {
    sessionId,
    sessionName: sessionName!,
    windowId: windowId!,
    windowIndex: Number(windowIndex),
    windowName: windowName!,
    paneId: paneId!,
    paneIndex: Number(paneIndex),
    active: windowActive === '1' && paneActive === '1',
    pid: Number(pid),
    command: command!,
    cwd: cwd!,
    width: Number(width),
    height: Number(height),
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

export const SESSION_FORMAT = ['#{session_id}', textField('session_name')].join(SEP);

/** A session's id and name from a `SESSION_FORMAT` row; null when the row does not fit. */
export function parseSessionLine(line: string): { id: string; name: string } | null {
  const f = line.split(SEP);
  if (f.length !== 2 || !/^\$\d+$/.test(f[0]!)) return null;
  return { id: f[0]!, name: decodeText(f[1]!) };
}
