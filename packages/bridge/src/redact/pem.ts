/**
 * PEM private key blocks that span lines.
 *
 * A key printed with `cat` covers many rows, and a screen may show only part of it: the
 * BEGIN line with its END below the bottom edge, or the END line with its BEGIN scrolled
 * away. The BEGIN line itself is handled by the `pem-inline` rule; this pass hides the body.
 */
import { MASK } from './ansi';
import type { Range } from './rules';

const BEGIN = /-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----/;
const END = /-----END[A-Z0-9 ]*PRIVATE KEY-----/;
// A body row of a key whose BEGIN is off screen: base64 and nothing else.
const BODY = /^[A-Za-z0-9+/]{16,}={0,2}$/;

const BEGIN_ALL = new RegExp(BEGIN.source, 'g');

function lastBegin(line: string): number {
  let at = -1;
  for (const m of line.matchAll(BEGIN_ALL)) at = m.index;
  return at;
}

const firstIndex = (re: RegExp, line: string): number => line.search(re);

/** The trimmed span of `line` within `[from, to)`, or nothing when that is only spaces. */
function trimmed(line: string, from: number, to: number): Range[] {
  let a = from;
  let b = to;
  while (a < b && /\s/.test(line[a] ?? '')) a++;
  while (b > a && /\s/.test(line[b - 1] ?? '')) b--;
  return a < b ? [[a, b]] : [];
}

/** Whether a line opens a block that goes on below it. */
function opensBlock(line: string): boolean {
  const begin = lastBegin(line);
  if (begin < 0) return false;
  const rest = line.slice(begin);
  // A JSON string holds its key on one line with `\n` escapes: cut off at the screen edge it
  // does not continue on the next row, which is the next JSON field. A mask after the marker
  // is such a line masked before (a block's BEGIN row has nothing after it): masking masked
  // text again changes nothing.
  return firstIndex(END, rest) < 0 && !rest.includes('\\n') && !rest.includes(MASK);
}

/**
 * For each line (visible text), the ranges that belong to the body of a multi-line private
 * key. Rows inside an open block are hidden whole (their indentation and padding kept), until
 * the END line or the end of the text: a block cut off by the bottom edge stays hidden.
 */
export function pemBlockRanges(lines: readonly string[]): Range[][] {
  const out: Range[][] = lines.map(() => []);
  let open = false;
  lines.forEach((line, i) => {
    const ranges = out[i] ?? [];
    const end = firstIndex(END, line);
    const begin = firstIndex(BEGIN, line);
    if (open) {
      ranges.push(...trimmed(line, 0, end < 0 ? line.length : end));
      if (end < 0) return;
      open = false;
    } else if (end >= 0 && (begin < 0 || begin > end)) {
      // An END with no BEGIN above it: the block's top is off screen. Hide the base64 rows
      // right above, and whatever precedes the marker on its own row (a line number at most).
      ranges.push(...trimmed(line, 0, end));
      for (let j = i - 1; j >= 0; j--) {
        const above = lines[j] ?? '';
        const body = trimmed(above, 0, above.length);
        const span = body[0];
        if (!span || !BODY.test(above.slice(span[0], span[1]))) break;
        out[j]?.push(span);
      }
    }
    if (opensBlock(line)) open = true;
  });
  return out;
}
