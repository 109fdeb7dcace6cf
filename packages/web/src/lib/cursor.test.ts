import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitAtCursor } from './cursor';
import { PLAIN, parseLine, spansText } from './sgr';

const spans = (line: string) => parseLine(line).spans;

describe('splitAtCursor', () => {
  it('isolates the cell under the cursor, keeping its style', () => {
    const row = splitAtCursor(spans('ab\x1b[1mcd\x1b[0mef'), 3);
    expect(spansText(row.before)).toBe('abc');
    expect(row.at.text).toBe('d');
    expect(row.at.style.bold).toBe(true);
    expect(spansText(row.after)).toBe('ef');
  });

  it('counts code points, not UTF-16 units', () => {
    const row = splitAtCursor(spans('😀x'), 1);
    expect(row.at.text).toBe('x');
  });

  it('pads with blanks when the cursor is past the text', () => {
    const row = splitAtCursor(spans('ab'), 4);
    expect(spansText(row.before)).toBe('ab  ');
    expect(row.at).toEqual({ text: ' ', style: PLAIN });
    expect(row.after).toEqual([]);
  });

  it('keeps every character of the row, in order', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 30 }), fc.nat(40), (text, x) => {
        const row = splitAtCursor(spans(text), x);
        const joined = spansText(row.before) + row.at.text + spansText(row.after);
        const length = Array.from(text).length;
        expect(joined).toBe(x < length ? text : text + ' '.repeat(x - length + 1));
        expect(Array.from(spansText(row.before))).toHaveLength(x);
      }),
    );
  });
});
