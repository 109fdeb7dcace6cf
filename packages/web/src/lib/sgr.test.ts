import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CellStyle, PLAIN, parseLine, parseScreen, spansText } from './sgr';
import { sameStyle } from './sgr-style';

/**
 * The reference for "text after stripping escapes", written independently of the parser as
 * one regex: CSI, then OSC ended by BEL or ST, else a lone ESC, tried left to right.
 */
const ESCAPES = /\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b/g;
const strip = (text: string): string => text.replace(ESCAPES, '');

/** Strings made of the pieces escapes are built from, so broken and nested ones come up often. */
const escapeSoup = fc
  .array(
    fc.oneof(
      fc.constantFrom('\x1b', '[', ']', ';', ':', 'm', 'H', '?', '\x07', '\\', '38', '48', '5', '2', '0', '1', '255', '256', ' '),
      fc.string({ unit: 'grapheme', maxLength: 4 }),
      fc.constantFrom('\x1b[0m', '\x1b[1;31m', '\x1b[38;5;208m', '\x1b[48;2;1;2;3m', '\x1b]8;;http://x\x1b\\', '\x1b[?25l'),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

const style = (changes: Partial<CellStyle>): CellStyle => ({ ...PLAIN, ...changes });
const only = (line: string): CellStyle => {
  const spans = parseLine(line).spans;
  expect(spans).toHaveLength(1);
  return spans[0]?.style ?? PLAIN;
};

describe('parseLine: properties', () => {
  it('never throws, on any string at all', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (line) => void parseLine(line)), { numRuns: 2000 });
  });

  it('keeps the text exactly, minus escapes', () => {
    for (const source of [escapeSoup, fc.string({ unit: 'binary' })]) {
      fc.assert(
        fc.property(source, (line) => {
          expect(spansText(parseLine(line).spans)).toBe(strip(line));
        }),
        { numRuns: 2000 },
      );
    }
  });

  it('emits no empty span and never two neighbours with the same style', () => {
    fc.assert(
      fc.property(escapeSoup, (line) => {
        const spans = parseLine(line).spans;
        for (const span of spans) expect(span.text).not.toBe('');
        for (let i = 1; i < spans.length; i++) expect(sameStyle(spans[i - 1]!.style, spans[i]!.style)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('parseLine: SGR', () => {
  it('reads the 16 colours, foreground and background', () => {
    expect(only('\x1b[31mx')).toEqual(style({ fg: { kind: 'palette', index: 1 } }));
    expect(only('\x1b[97mx')).toEqual(style({ fg: { kind: 'palette', index: 15 } }));
    expect(only('\x1b[44mx')).toEqual(style({ bg: { kind: 'palette', index: 4 } }));
    expect(only('\x1b[101mx')).toEqual(style({ bg: { kind: 'palette', index: 9 } }));
  });

  it('reads 256 colours and truecolour, in the semicolon and the colon form', () => {
    expect(only('\x1b[38;5;208mx').fg).toEqual({ kind: 'palette', index: 208 });
    expect(only('\x1b[48:5:17mx').bg).toEqual({ kind: 'palette', index: 17 });
    expect(only('\x1b[38;2;255;128;0mx').fg).toEqual({ kind: 'rgb', r: 255, g: 128, b: 0 });
    expect(only('\x1b[48:2::10:20:30mx').bg).toEqual({ kind: 'rgb', r: 10, g: 20, b: 30 });
    expect(only('\x1b[38:2:10:20:30mx').fg).toEqual({ kind: 'rgb', r: 10, g: 20, b: 30 });
  });

  it('keeps reading codes after an extended colour', () => {
    expect(only('\x1b[38;5;1;1;4mx')).toEqual(style({ fg: { kind: 'palette', index: 1 }, bold: true, underline: true }));
    expect(only('\x1b[48;2;1;2;3;7mx')).toEqual(style({ bg: { kind: 'rgb', r: 1, g: 2, b: 3 }, inverse: true }));
  });

  it('ignores malformed colours without losing the style in force', () => {
    expect(only('\x1b[31m\x1b[38;5;300mx').fg).toEqual({ kind: 'palette', index: 1 });
    expect(only('\x1b[31m\x1b[38;2;1;2mx').fg).toEqual({ kind: 'palette', index: 1 });
    expect(only('\x1b[31m\x1b[38mx').fg).toEqual({ kind: 'palette', index: 1 });
  });

  it('sets and clears bold, dim, italic, underline, inverse, strike', () => {
    expect(only('\x1b[1;2;3;4;7;9mx')).toEqual(
      style({ bold: true, dim: true, italic: true, underline: true, inverse: true, strike: true }),
    );
    expect(only('\x1b[1;2;3;4;7;9m\x1b[22;23;24;27;29mx')).toEqual(PLAIN);
    expect(only('\x1b[4:3mx').underline).toBe(true);
    expect(only('\x1b[4m\x1b[4:0mx').underline).toBe(false);
  });

  it('resets with 0, with an empty list, and defaults colours with 39 and 49', () => {
    expect(only('\x1b[1;31;42m\x1b[0mx')).toEqual(PLAIN);
    expect(only('\x1b[1;31;42m\x1b[mx')).toEqual(PLAIN);
    expect(only('\x1b[31;42m\x1b[39mx')).toEqual(style({ bg: { kind: 'palette', index: 2 } }));
    expect(only('\x1b[31;42m\x1b[49mx')).toEqual(style({ fg: { kind: 'palette', index: 1 } }));
  });

  it('splits text into runs where the style changes', () => {
    const { spans } = parseLine('plain \x1b[1mbold\x1b[0m plain');
    expect(spans.map((s) => [s.text, s.style.bold])).toEqual([
      ['plain ', false],
      ['bold', true],
      [' plain', false],
    ]);
  });

  it('drops other CSI sequences, OSC hyperlinks and lone escapes, keeping their text', () => {
    expect(spansText(parseLine('a\x1b[2Kb\x1b[?25lc').spans)).toBe('abc');
    expect(spansText(parseLine('\x1b]8;;https://x.dev\x1b\\link\x1b]8;;\x07!').spans)).toBe('link!');
    expect(spansText(parseLine('a\x1bb\x1b[').spans)).toBe('ab[');
    expect(only('\x1b[>4;1mx')).toEqual(PLAIN);
  });
});

describe('parseScreen', () => {
  it('carries the style from one line into the next, as tmux capture-pane -e does', () => {
    const rows = parseScreen(['\x1b[32mgreen', 'still green\x1b[0m', 'plain']);
    expect(rows[0]?.[0]?.style.fg).toEqual({ kind: 'palette', index: 2 });
    expect(rows[1]?.[0]?.style.fg).toEqual({ kind: 'palette', index: 2 });
    expect(rows[2]?.[0]?.style).toEqual(PLAIN);
  });

  it('keeps empty lines as empty rows', () => {
    expect(parseScreen(['a', '', 'b']).map((row) => spansText(row))).toEqual(['a', '', 'b']);
  });
});
