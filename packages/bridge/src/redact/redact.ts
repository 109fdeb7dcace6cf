/**
 * Secret masking for everything Collie shows or pushes (`COLLIE_REDACT`, on by default).
 *
 * A secret keeps a short prefix that says what it was (`sk-ant-`, `Bearer `, `password=`,
 * `https://user:`) and the rest becomes one `…`. Output is never longer than input, and
 * masking twice changes nothing.
 */
import { joinAnsi, splitAnsi, type AnsiRow } from './ansi';
import { pemBlockRanges } from './pem';
import { secretRanges, type Range } from './rules';

/** Options for {@link redactLines}. */
export interface RedactLinesOptions {
  /**
   * The pane's width in columns. A row exactly this wide is taken to wrap onto the next one,
   * so a key split by the right edge is matched whole and neither half survives.
   */
  readonly width?: number;
}

interface Row {
  readonly ansi: AnsiRow;
  /** A CR line end (captured screens use CRLF): never part of a match, always written back. */
  readonly eol: string;
  readonly drop: Uint8Array;
}

function toRow(line: string): Row {
  const eol = line.endsWith('\r') ? '\r' : '';
  const ansi = splitAnsi(eol ? line.slice(0, -1) : line);
  return { ansi, eol, drop: new Uint8Array(ansi.plain.length) };
}

/** Consecutive rows that form one logical line: each but the last fills the whole width. */
function logicalGroups(rows: readonly Row[], width: number | undefined): number[][] {
  const groups: number[][] = [];
  let current: number[] = [];
  rows.forEach((row, i) => {
    current.push(i);
    const wraps = width !== undefined && width > 0 && row.ansi.plain.length >= width;
    if (!wraps) {
      groups.push(current);
      current = [];
    }
  });
  if (current.length > 0) groups.push(current);
  return groups;
}

function mark(row: Row, ranges: readonly Range[], offset = 0): void {
  for (const [start, end] of ranges) {
    const a = Math.max(0, start - offset);
    const b = Math.min(row.drop.length, end - offset);
    if (a < b) row.drop.fill(1, a, b);
  }
}

// OSC 8 hyperlinks carry a URL inside the escape, which may hold credentials.
const OSC = /^(\x1b\])([^\x07\x1b]*)(\x07|\x1b\\)$/;

function maskEscape(escape: string): string {
  const m = OSC.exec(escape);
  if (!m) return escape;
  const payload = m[2] ?? '';
  const ranges = secretRanges(payload);
  if (ranges.length === 0) return escape;
  const row = toRow(payload);
  mark(row, ranges);
  return `${m[1]}${joinAnsi(row.ansi, (i) => row.drop[i] === 1)}${m[3]}`;
}

/**
 * Mask the secrets in captured screen rows, keeping every escape sequence intact.
 * Rows are matched one by one (a private key block across rows included), and rows that
 * wrap at `options.width` are also matched joined.
 *
 * @example
 * redactLines(['\x1b[32mexport OPENAI_API_KEY=sk-proj-abc…\x1b[0m'])
 * // ['\x1b[32mexport OPENAI_API_KEY=…\x1b[0m']
 */
export function redactLines(lines: readonly string[], options: RedactLinesOptions = {}): string[] {
  const rows = lines.map(toRow);
  const groups = logicalGroups(rows, options.width);
  const logical = groups.map((g) => g.map((i) => rows[i]?.ansi.plain ?? '').join(''));
  const pem = pemBlockRanges(logical);
  groups.forEach((group, gi) => {
    const ranges = [...secretRanges(logical[gi] ?? ''), ...(pem[gi] ?? [])];
    let offset = 0;
    for (const i of group) {
      const row = rows[i];
      if (!row) continue;
      mark(row, ranges, offset);
      // A wrapped row is also read alone: joining can hide a key's start behind the word
      // that ends the row above, and reading alone is what a second pass would see.
      if (group.length > 1) mark(row, secretRanges(row.ansi.plain));
      offset += row.ansi.plain.length;
    }
  });
  return rows.map((row) => joinAnsi(row.ansi, (i) => row.drop[i] === 1, maskEscape) + row.eol);
}

/**
 * Mask the secrets in a text: a log line, a title, a whole captured screen joined by `\n`.
 *
 * @example
 * redact('curl -H "Authorization: Bearer eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl"')
 * // 'curl -H "Authorization: Bearer …"'
 */
export function redact(text: string): string {
  if (text === '') return text;
  return redactLines(text.split('\n')).join('\n');
}

/** A redactor as the bridge passes it around: call it on text, or use `.lines` on screens. */
export interface Redactor {
  (text: string): string;
  readonly enabled: boolean;
  lines(lines: readonly string[], options?: RedactLinesOptions): string[];
}

/**
 * The redactor for a `COLLIE_REDACT` setting: masking when enabled, the identity when not.
 *
 * @example
 * const mask = makeRedactor(config.redact);
 * pushTitle(mask(conversation.title));
 */
export function makeRedactor(enabled: boolean): Redactor {
  if (!enabled) return Object.assign((text: string) => text, { enabled, lines: (lines: readonly string[]) => [...lines] });
  return Object.assign((text: string) => redact(text), {
    enabled,
    lines: (lines: readonly string[], options?: RedactLinesOptions) => redactLines(lines, options),
  });
}
