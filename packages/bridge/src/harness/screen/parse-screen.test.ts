import { describe, expect, it } from 'vitest';
import { applySgr, applySgrStyle, parseScreen } from './parse-screen';
import { typedText } from './styled-line';

const E = '\u001b';
/** Render the faint cells of each row in brackets, to compare readably. */
const shown = (raw: string): string[] =>
  parseScreen(raw).map((l) => [...l.text].map((c, i) => (l.dim[i] ? `[${c}]` : c)).join('').replace(/\]\[/g, ''));

describe('parseScreen', () => {
  it('splits rows on LF, CRLF and a lone CR', () => {
    expect(parseScreen('a\nb\r\nc\rd').map((l) => l.text)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps a trailing empty row only when the last row had text', () => {
    expect(parseScreen('a\r\n').map((l) => l.text)).toEqual(['a']);
    expect(parseScreen('a\r\n\r\n').map((l) => l.text)).toEqual(['a', '']);
    expect(parseScreen('').map((l) => l.text)).toEqual(['']);
  });

  it('marks text after SGR 2 faint until SGR 0 or 22', () => {
    expect(shown(`❯ ${E}[0m${E}[2mfix it${E}[0m tail`)).toEqual(['❯ [fix it] tail']);
    expect(shown(`${E}[2mdim${E}[22mnormal`)).toEqual(['[dim]normal']);
    expect(shown(`${E}[2mdim${E}[mreset`)).toEqual(['[dim]reset']);
  });

  it('does not read the 2 of a truecolour or 256-colour argument as faint', () => {
    expect(shown(`${E}[38;2;215;119;87mcolour${E}[0m`)).toEqual(['colour']);
    expect(shown(`${E}[48;5;2mbg${E}[0m`)).toEqual(['bg']);
    expect(shown(`${E}[38;2;2;2;2;2mboth`)).toEqual(['[both]']);
  });

  it('treats colon sub-parameters as one parameter', () => {
    expect(shown(`${E}[38:2::2:2:2mplain`)).toEqual(['plain']);
    expect(shown(`${E}[2:1mfaint`)).toEqual(['[faint]']);
  });

  it('faintness carries across rows until reset, as in the terminal', () => {
    expect(shown(`${E}[2mone\ntwo${E}[0m three`)).toEqual(['[one]', '[two] three']);
  });

  it('ignores SGR-like sequences with private markers (xterm modifyOtherKeys)', () => {
    expect(shown(`${E}[>4;2mtext`)).toEqual(['text']);
  });

  it('drops OSC hyperlinks, other CSI and two-byte escapes but keeps their text', () => {
    const link = `${E}]8;;https://example.com${E}\\label${E}]8;;${E}\\`;
    expect(parseScreen(`${link} ${E}[2K${E}(Bok${E}=`).map((l) => l.text)).toEqual(['label ok']);
    expect(parseScreen(`${E}]0;title\u0007after`).map((l) => l.text)).toEqual(['after']);
  });

  it('cuts an unterminated OSC at the end of its row', () => {
    expect(parseScreen(`${E}]8;;broken\nnext`).map((l) => l.text)).toEqual(['', 'next']);
  });

  it('reads the 8-bit CSI like ESC [', () => {
    expect(shown('a\u009b2mb\u009b0mc')).toEqual(['a[b]c']);
  });

  it('keeps the line end after an escape cut off at a row end (LF and CRLF read the same)', () => {
    expect(parseScreen(`a${E}\nesc`).map((l) => l.text)).toEqual(['a', 'esc']);
    expect(parseScreen(`a${E}\r\nesc`).map((l) => l.text)).toEqual(['a', 'esc']);
    expect(parseScreen(`a${E}(\nesc`).map((l) => l.text)).toEqual(['a', 'esc']);
  });

  it('survives an escape cut off at the very end', () => {
    expect(parseScreen(`text${E}`).map((l) => l.text)).toEqual(['text']);
    expect(parseScreen(`text${E}[38;2`).map((l) => l.text)).toEqual(['text']);
  });

  it('drops control characters and expands tabs to the next stop of eight', () => {
    expect(parseScreen('a\u0000b\u0007c\u0080d\u007f').map((l) => l.text)).toEqual(['abcd']);
    expect(parseScreen('ab\tc').map((l) => l.text)).toEqual(['ab      c']);
  });

  it('keeps the faint flag aligned with the text, surrogate pairs included', () => {
    const [line] = parseScreen(`😀${E}[2m👻${E}[0mx`);
    expect(line?.text).toBe('😀👻x');
    expect(line && typedText(line)).toBe('😀x');
  });
});

describe('applySgr', () => {
  it.each([
    ['2', false, true],
    ['0', true, false],
    ['', true, false],
    ['1', true, true],
    ['1;2', false, true],
    ['2;0', false, false],
    ['22', true, false],
    ['38;5;2', false, false],
    ['38;5;2;2', false, true],
    ['58;2;9;9;9', true, true],
  ])('%j from %s gives %s', (params, before, after) => {
    expect(applySgr(params, before)).toBe(after);
  });
});

describe('highlight', () => {
  it('marks cells drawn on a background colour or in reverse video, as Claude draws its open tab', () => {
    const [line] = parseScreen(`← ☒ Size ${E}[38;2;0;0;0m${E}[48;2;177;185;249m ☐ Crust ${E}[0m ✔ Submit`);
    const marked = Array.from({ length: line?.text.length ?? 0 }, (_, i) => line?.marked[i] === true);
    expect(line?.text.slice(marked.indexOf(true), marked.lastIndexOf(true) + 1)).toBe(' ☐ Crust ');
    const [rev] = parseScreen(`a${E}[7mb${E}[27mc`);
    expect([0, 1, 2].map((i) => rev?.marked[i] === true)).toEqual([false, true, false]);
  });

  it.each([
    ['48;5;153', true],
    ['48:2::1:2:3', true],
    ['44', true],
    ['104', true],
    ['38;2;48;48;48', false],
    ['38;5;48', false],
    ['7', true],
  ])('%s sets it: %s', (params, on) => {
    const style = applySgrStyle(params, { faint: false, background: false, backgroundColour: '', reverse: false });
    expect(style.background || style.reverse).toBe(on);
  });

  it('49, 27 and 0 clear it', () => {
    const on = { faint: true, background: true, backgroundColour: '41', reverse: true };
    expect(applySgrStyle('49', on)).toEqual({ faint: true, background: false, backgroundColour: '', reverse: true });
    expect(applySgrStyle('27', on)).toEqual({ faint: true, background: true, backgroundColour: '41', reverse: false });
    expect(applySgrStyle('0', on)).toEqual({ faint: false, background: false, backgroundColour: '', reverse: false });
  });

  it.each([
    ['48;2;245;167;66', '48;2;245;167;66'],
    ['38;2;10;10;10;48;5;153', '48;5;153'],
    ['44', '44'],
    ['48:2::1:2:3', '48:2::1:2:3'],
    ['38;2;48;48;48', ''],
  ])('%s names the background colour %s', (params, colour) => {
    expect(applySgrStyle(params, { faint: false, background: false, backgroundColour: '', reverse: false }).backgroundColour).toBe(colour);
  });

  it('keeps each cell\'s background colour on the line, only when some cell has one', () => {
    const [line] = parseScreen('a\u001b[48;2;1;2;3mbc\u001b[49md');
    expect(line?.bg).toEqual(['', '48;2;1;2;3', '48;2;1;2;3']);
    expect(parseScreen('plain')[0]?.bg).toBeUndefined();
  });
});
