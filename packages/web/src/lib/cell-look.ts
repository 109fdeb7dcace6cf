import type { CellStyle, Color } from './sgr-style';
import { paletteHex, rgbHex } from './xterm-palette';

/**
 * How a run of cells is drawn: classes for the attributes and the 16 theme colours (so the
 * stylesheet owns them), inline colours only for 256-colour and 24-bit ones. The inline colours
 * go through React's `style` prop, which sets them on the DOM and so passes `style-src 'self'`.
 */
export interface CellLook {
  readonly className: string;
  readonly color?: string;
  readonly backgroundColor?: string;
}

export function cellLook(style: CellStyle): CellLook {
  const classes: string[] = [];
  // Inverse swaps the two colours, defaults included: the default foreground becomes a background.
  const fg = style.inverse ? style.bg : style.fg;
  const bg = style.inverse ? style.fg : style.bg;
  let color: string | undefined;
  let backgroundColor: string | undefined;
  if (fg) {
    const hex = colorHex(fg);
    if (hex) color = hex;
    else classes.push(`fg-${paletteIndex(fg)}`);
  } else if (style.inverse) {
    classes.push('fg-inverse');
  }
  if (bg) {
    const hex = colorHex(bg);
    if (hex) backgroundColor = hex;
    else classes.push(`bg-${paletteIndex(bg)}`);
  } else if (style.inverse) {
    classes.push('bg-inverse');
  }
  if (style.bold) classes.push('t-bold');
  if (style.dim) classes.push('t-dim');
  if (style.italic) classes.push('t-italic');
  if (style.underline && style.strike) classes.push('t-underline-strike');
  else if (style.underline) classes.push('t-underline');
  else if (style.strike) classes.push('t-strike');
  if (style.hidden) classes.push('t-hidden');
  return {
    className: classes.join(' '),
    ...(color === undefined ? {} : { color }),
    ...(backgroundColor === undefined ? {} : { backgroundColor }),
  };
}

/** Null for the 16 theme colours, which are classes. */
function colorHex(color: Color): string | null {
  return color.kind === 'rgb' ? rgbHex(color.r, color.g, color.b) : paletteHex(color.index);
}

function paletteIndex(color: Color): number {
  return color.kind === 'palette' ? color.index : 0;
}
