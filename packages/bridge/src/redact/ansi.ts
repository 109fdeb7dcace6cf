/**
 * Terminal escapes, seen only so that secret detection can look through them.
 *
 * Captured screens (`capture-pane -e`) carry SGR sequences between any two characters, so a
 * key printed in two colours is one key. We split a row into escapes and visible text, match
 * on the visible text alone, and write every escape back untouched.
 */

/** One piece of a row: an escape sequence (kept verbatim) or visible text. */
export interface Segment {
  readonly text: string;
  readonly escape: boolean;
}

/** A row split into segments, with its visible text (`plain`) concatenated. */
export interface AnsiRow {
  readonly segments: readonly Segment[];
  readonly plain: string;
}

// ECMA-48: CSI (`ESC [` params, intermediates, final byte), OSC (to BEL or ST), and the
// string controls DCS/SOS/PM/APC (to ST). `capture-pane -e` emits only these. Anything else,
// a lone or truncated ESC included, stays visible text: were `ESC x` taken as an escape, an
// ESC written just before a key would hide the key's first letter, and with it the key.
const ESCAPE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\)/g;

/** Split a row into escapes and visible text. */
export function splitAnsi(row: string): AnsiRow {
  const segments: Segment[] = [];
  let plain = '';
  let last = 0;
  for (const m of row.matchAll(ESCAPE)) {
    if (m.index > last) {
      const text = row.slice(last, m.index);
      segments.push({ text, escape: false });
      plain += text;
    }
    segments.push({ text: m[0], escape: true });
    last = m.index + m[0].length;
  }
  if (last < row.length) {
    const text = row.slice(last);
    segments.push({ text, escape: false });
    plain += text;
  }
  return { segments, plain };
}

/** The mark left where a secret's hidden part was. One character, so masking never lengthens text. */
export const MASK = '…';

/**
 * Write a row back with the visible characters whose `drop` flag is set replaced: each run of
 * dropped characters becomes one {@link MASK}. A run continues across escapes, and every
 * escape is written back as it was, so colours still open and close where they did.
 * `escapeText` may rewrite the payload of an escape (used for OSC hyperlink targets).
 */
export function joinAnsi(
  row: AnsiRow,
  drop: (plainIndex: number) => boolean,
  escapeText: (escape: string) => string = (e) => e,
): string {
  let out = '';
  let i = 0;
  for (const seg of row.segments) {
    if (seg.escape) {
      out += escapeText(seg.text);
      continue;
    }
    for (let k = 0; k < seg.text.length; k++, i++) {
      if (!drop(i)) out += seg.text[k];
      else if (i === 0 || !drop(i - 1)) out += MASK;
    }
  }
  return out;
}
