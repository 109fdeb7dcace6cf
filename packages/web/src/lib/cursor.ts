import { PLAIN, type Span } from './sgr';

/** No terminal is wider than this; a wilder cursor column is not worth a string that long. */
const MAX_PAD = 10_000;

/** A row split around the cursor cell, so the cell can be drawn as a block. */
export interface CursorRow {
  readonly before: readonly Span[];
  readonly at: Span;
  readonly after: readonly Span[];
}

/**
 * Splits a row's spans at column `x`, counting one column per code point (tmux pads wide
 * characters, so this is exact for the text agents draw, and off by one only after a CJK glyph).
 * Past the end of the text, the cursor sits on a blank cell of the default style.
 */
export function splitAtCursor(spans: readonly Span[], x: number): CursorRow {
  const before: Span[] = [];
  let column = 0;
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i];
    if (!span) continue;
    const chars = Array.from(span.text);
    if (x < column + chars.length) {
      const offset = Math.max(0, x - column);
      const head = chars.slice(0, offset).join('');
      const tail = chars.slice(offset + 1).join('');
      if (head) before.push({ text: head, style: span.style });
      const after = tail ? [{ text: tail, style: span.style }, ...spans.slice(i + 1)] : spans.slice(i + 1);
      return { before, at: { text: chars[offset] ?? ' ', style: span.style }, after };
    }
    before.push(span);
    column += chars.length;
  }
  const pad = Math.min(Math.max(0, x - column), MAX_PAD);
  if (pad > 0) before.push({ text: ' '.repeat(pad), style: PLAIN });
  return { before, at: { text: ' ', style: PLAIN }, after: [] };
}
