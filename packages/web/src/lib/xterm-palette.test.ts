import { describe, expect, it } from 'vitest';
import { paletteHex, rgbHex } from './xterm-palette';

describe('paletteHex', () => {
  it('leaves the 16 theme colours and out-of-range indexes to the caller', () => {
    expect(paletteHex(0)).toBeNull();
    expect(paletteHex(15)).toBeNull();
    expect(paletteHex(256)).toBeNull();
    expect(paletteHex(20.5)).toBeNull();
  });

  it('follows xterm: a 6×6×6 cube from 16, a grey ramp from 232', () => {
    expect(paletteHex(16)).toBe('#000000');
    expect(paletteHex(21)).toBe('#0000ff');
    expect(paletteHex(196)).toBe('#ff0000');
    expect(paletteHex(208)).toBe('#ff8700');
    expect(paletteHex(231)).toBe('#ffffff');
    expect(paletteHex(232)).toBe('#080808');
    expect(paletteHex(255)).toBe('#eeeeee');
  });

  it('writes two hex digits per channel', () => {
    expect(rgbHex(1, 171, 255)).toBe('#01abff');
  });
});
