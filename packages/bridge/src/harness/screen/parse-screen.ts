import type { StyledLine } from './styled-line';

const ESC = '\u001b';
const BEL = '\u0007';
const TAB_STOP = 8;
/** C0 and C1 control characters and DEL: line ends, escapes, tabs and the rest (all in the BMP). */
const SPECIAL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Turn `tmux capture-pane -e -p` output into rows of text with per-character faint and
 * highlight flags.
 *
 * capture-pane -e emits SGR (`ESC [ … m`) for styling and, in newer tmux, OSC 8 hyperlinks;
 * anything else that slips in (other CSI, OSC, DCS, C0/C1 controls) is dropped. Rows end in
 * `\n`, `\r\n` or a lone `\r`. Pure and total: any string gives some rows, never a throw.
 *
 * @example
 * parseScreen('\u001b[2mghost\u001b[0m typed\r\n')[0].text // 'ghost typed'
 */
export function parseScreen(raw: string): StyledLine[] {
  const lines: StyledLine[] = [];
  let text = '';
  let dim: boolean[] = [];
  let marked: boolean[] = [];
  let bg: string[] = [];
  let style: SgrStyle = PLAIN;
  const push = (): void => {
    lines.push(bg.length > 0 ? { text, dim, marked, bg } : { text, dim, marked });
    text = '';
    dim = [];
    marked = [];
    bg = [];
  };
  const append = (chunk: string): void => {
    text += chunk;
    const faint = style.faint;
    for (let k = 0; k < chunk.length; k++) dim.push(faint);
    // Most rows have no highlight: `marked` stays short and grows only up to a marked cell.
    if (style.background || style.reverse) {
      while (marked.length < dim.length - chunk.length) marked.push(false);
      for (let k = 0; k < chunk.length; k++) marked.push(true);
    }
    if (style.backgroundColour !== '') {
      while (bg.length < dim.length - chunk.length) bg.push('');
      for (let k = 0; k < chunk.length; k++) bg.push(style.backgroundColour);
    }
  };

  let i = 0;
  const n = raw.length;
  while (i < n) {
    // Copy the run of printable characters up to the next control character in one go.
    SPECIAL.lastIndex = i;
    const next = SPECIAL.exec(raw);
    const stop = next ? next.index : n;
    if (stop > i) append(raw.slice(i, stop));
    if (stop >= n) break;
    i = stop;
    const ch = raw[i] as string;
    if (ch === '\n') {
      push();
      i++;
    } else if (ch === '\r') {
      push();
      i += raw[i + 1] === '\n' ? 2 : 1;
    } else if (ch === ESC || ch === '\u009b') {
      const esc = readEscape(raw, i);
      if (esc.sgr !== undefined) style = applySgrStyle(esc.sgr, style);
      i = esc.end;
    } else if (ch === '\t') {
      append(' '.repeat(TAB_STOP - (text.length % TAB_STOP)));
      i++;
    } else {
      // Any other C0/C1 control draws nothing.
      i++;
    }
  }
  if (text !== '' || lines.length === 0) push();
  return lines;
}

interface Escape {
  /** Index just past the sequence. */
  end: number;
  /** The parameter string when the sequence is an SGR. */
  sgr?: string;
}

/** Read one escape sequence starting at `start` (an ESC or an 8-bit CSI). */
function readEscape(raw: string, start: number): Escape {
  let i = start + 1;
  if (raw[start] === ESC) {
    const kind = raw[i];
    // An ESC cut off at a row's end: drop it, keep the line end (else LF and CRLF screens differ).
    if (kind === undefined || kind === '\n' || kind === '\r') return { end: i };
    if (kind === '[') i++;
    else if (kind === ']' || kind === 'P' || kind === 'X' || kind === '^' || kind === '_') {
      return { end: skipString(raw, i + 1) };
    } else {
      // Two-or-three-byte escapes such as `ESC ( B` or `ESC =`: intermediates then a final.
      while (i < raw.length && isBetween(raw, i, 0x20, 0x2f)) i++;
      return { end: i < raw.length && isBetween(raw, i, 0x30, 0x7e) ? i + 1 : i };
    }
  }
  const paramsStart = i;
  while (i < raw.length && isBetween(raw, i, 0x30, 0x3f)) i++;
  const paramsEnd = i;
  while (i < raw.length && isBetween(raw, i, 0x20, 0x2f)) i++;
  if (i >= raw.length || !isBetween(raw, i, 0x40, 0x7e)) {
    // An unfinished CSI: drop what was read and resume on the next character.
    return { end: i };
  }
  const final = raw[i];
  const end = i + 1;
  const params = raw.slice(paramsStart, paramsEnd);
  // `ESC [ > 4 ; 2 m` and friends end in `m` too but are not SGR: only digits and separators are.
  return final === 'm' && paramsEnd === i && /^[\d;:]*$/.test(params) ? { end, sgr: params } : { end };
}

function isBetween(raw: string, i: number, lo: number, hi: number): boolean {
  const c = raw.charCodeAt(i);
  return c >= lo && c <= hi;
}

/**
 * Skip an OSC/DCS-style string up to BEL or ST (`ESC \`). A string left unterminated by the
 * end of its row is cut at the row end, so one stray `ESC ]` cannot swallow the screen.
 */
function skipString(raw: string, from: number): number {
  for (let i = from; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === BEL) return i + 1;
    if (ch === ESC && raw[i + 1] === '\\') return i + 2;
    if (ch === '\n' || ch === '\r') return i;
  }
  return raw.length;
}

/** The SGR attributes the readers use: faint text, and a cell set off by colour behind it. */
export interface SgrStyle {
  readonly faint: boolean;
  /** A background colour other than the default (SGR 40–47, 100–107, 48;…). */
  readonly background: boolean;
  /** Which background colour, as its SGR parameters (`48;2;245;167;66`, `41`); '' for the default. */
  readonly backgroundColour: string;
  /** Reverse video (SGR 7). */
  readonly reverse: boolean;
}

const PLAIN: SgrStyle = { faint: false, background: false, backgroundColour: '', reverse: false };

/**
 * Fold one SGR parameter list into the faint flag. Extended colours (`38;5;n`,
 * `38;2;r;g;b`, and the same for 48/58) consume their arguments, so the `2` of
 * `38;2;…` is never mistaken for "faint". Colon sub-parameters (`38:2::r:g:b`) are
 * one parameter.
 */
export function applySgr(params: string, faint: boolean): boolean {
  return applySgrStyle(params, { ...PLAIN, faint }).faint;
}

/**
 * Fold one SGR parameter list into a style. Claude marks the open tab of its question dialog
 * with a background colour (`48;2;177;185;249m`, `48;5;153m` in 256 colours), so that is kept
 * as well as faint.
 */
export function applySgrStyle(params: string, before: SgrStyle): SgrStyle {
  const parts = params === '' ? ['0'] : params.split(';');
  let { faint, background, backgroundColour, reverse } = before;
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k] ?? '';
    const code = part.includes(':') ? part.slice(0, part.indexOf(':')) : part;
    const n = Number(code);
    if (code === '' || code === '0') {
      faint = false;
      background = false;
      backgroundColour = '';
      reverse = false;
    } else if (code === '2') faint = true;
    else if (code === '22') faint = false;
    else if (code === '7') reverse = true;
    else if (code === '27') reverse = false;
    else if (code === '49') {
      background = false;
      backgroundColour = '';
    } else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) {
      background = true;
      backgroundColour = code;
    } else if ((code === '38' || code === '48' || code === '58') && !part.includes(':')) {
      const mode = parts[k + 1];
      const width = mode === '5' ? 2 : mode === '2' ? 4 : 0;
      if (code === '48') {
        background = true;
        backgroundColour = parts.slice(k, k + 1 + width).join(';');
      }
      k += width;
    } else if (code === '48') {
      background = true;
      backgroundColour = part;
    }
  }
  return { faint, background, backgroundColour, reverse };
}
