/**
 * Parser for the lines of a pane screen as `tmux capture-pane -e` prints them: text with SGR
 * escapes (`ESC [ … m`). Other CSI sequences and OSC strings (hyperlinks, titles) are dropped;
 * an ESC that starts no well-formed sequence is dropped alone and what follows stays text.
 * Never throws: every input yields spans whose text is the input minus its escapes.
 */
import { type CellStyle, PLAIN, applySgr, sameStyle } from './sgr-style';

export { type CellStyle, type Color, PLAIN } from './sgr-style';

export interface Span {
  readonly text: string;
  readonly style: CellStyle;
}

export interface ParsedLine {
  readonly spans: readonly Span[];
  /** The style in force after the line: tmux carries attributes from one captured line to the next. */
  readonly end: CellStyle;
}

const ESC = 0x1b;
const BEL = 0x07;

export function parseLine(line: string, start: CellStyle = PLAIN): ParsedLine {
  const spans: Span[] = [];
  let style = start;
  let text = '';
  const flush = (): void => {
    if (text === '') return;
    const last = spans[spans.length - 1];
    if (last && sameStyle(last.style, style)) spans[spans.length - 1] = { text: last.text + text, style };
    else spans.push({ text, style });
    text = '';
  };
  let i = 0;
  while (i < line.length) {
    if (line.charCodeAt(i) !== ESC) {
      const next = line.indexOf('\x1b', i);
      const end = next === -1 ? line.length : next;
      text += line.slice(i, end);
      i = end;
      continue;
    }
    const kind = line.charCodeAt(i + 1);
    if (kind === 0x5b /* [ */) {
      const csi = scanCsi(line, i + 2);
      if (csi) {
        if (csi.final === 'm' && csi.intermediates === '' && /^[\d;:]*$/.test(csi.params)) {
          flush();
          style = applySgr(style, csi.params);
        }
        i = csi.end;
        continue;
      }
    } else if (kind === 0x5d /* ] */) {
      const end = scanOsc(line, i + 2);
      if (end !== -1) {
        i = end;
        continue;
      }
    }
    i += 1;
  }
  flush();
  return { spans, end: style };
}

/** Parses a whole screen, carrying the style across lines as the terminal would. */
export function parseScreen(lines: readonly string[]): Span[][] {
  const rows: Span[][] = [];
  let style = PLAIN;
  for (const line of lines) {
    const parsed = parseLine(line, style);
    rows.push([...parsed.spans]);
    style = parsed.end;
  }
  return rows;
}

/** The visible text of parsed spans. */
export function spansText(spans: readonly Span[]): string {
  return spans.map((span) => span.text).join('');
}

interface Csi {
  readonly params: string;
  readonly intermediates: string;
  readonly final: string;
  readonly end: number;
}

/** ECMA-48 CSI: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, one final byte 0x40–0x7E. */
function scanCsi(line: string, start: number): Csi | null {
  let i = start;
  while (i < line.length && inRange(line.charCodeAt(i), 0x30, 0x3f)) i++;
  const paramsEnd = i;
  while (i < line.length && inRange(line.charCodeAt(i), 0x20, 0x2f)) i++;
  if (i >= line.length || !inRange(line.charCodeAt(i), 0x40, 0x7e)) return null;
  return {
    params: line.slice(start, paramsEnd),
    intermediates: line.slice(paramsEnd, i),
    final: line.charAt(i),
    end: i + 1,
  };
}

/** OSC: runs to BEL or to ST (`ESC \`). Returns the index after the terminator, or -1. */
function scanOsc(line: string, start: number): number {
  for (let i = start; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (code === BEL) return i + 1;
    if (code === ESC) return line.charCodeAt(i + 1) === 0x5c /* \ */ ? i + 2 : -1;
  }
  return -1;
}

function inRange(code: number, low: number, high: number): boolean {
  return code >= low && code <= high;
}
