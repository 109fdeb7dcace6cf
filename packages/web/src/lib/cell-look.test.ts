import { describe, expect, it } from 'vitest';
import { cellLook } from './cell-look';
import { type CellStyle, PLAIN } from './sgr-style';

const look = (changes: Partial<CellStyle>) => cellLook({ ...PLAIN, ...changes });

describe('cellLook', () => {
  it('draws plain text with no class and no inline colour', () => {
    expect(cellLook(PLAIN)).toEqual({ className: '' });
  });

  it('uses classes for the 16 theme colours', () => {
    expect(look({ fg: { kind: 'palette', index: 1 }, bg: { kind: 'palette', index: 12 } })).toEqual({
      className: 'fg-1 bg-12',
    });
  });

  it('uses inline colours for 256-colour and truecolour', () => {
    expect(look({ fg: { kind: 'palette', index: 208 }, bg: { kind: 'rgb', r: 1, g: 2, b: 3 } })).toEqual({
      className: '',
      color: '#ff8700',
      backgroundColor: '#010203',
    });
  });

  it('swaps colours for inverse, defaults included', () => {
    expect(look({ inverse: true })).toEqual({ className: 'fg-inverse bg-inverse' });
    expect(look({ inverse: true, fg: { kind: 'palette', index: 2 } })).toEqual({ className: 'fg-inverse bg-2' });
    expect(look({ inverse: true, bg: { kind: 'rgb', r: 255, g: 0, b: 0 } })).toEqual({
      className: 'bg-inverse',
      color: '#ff0000',
    });
  });

  it('maps each attribute to its class', () => {
    expect(look({ bold: true, dim: true, italic: true, hidden: true }).className).toBe('t-bold t-dim t-italic t-hidden');
    expect(look({ underline: true }).className).toBe('t-underline');
    expect(look({ strike: true }).className).toBe('t-strike');
    expect(look({ underline: true, strike: true }).className).toBe('t-underline-strike');
  });
});
