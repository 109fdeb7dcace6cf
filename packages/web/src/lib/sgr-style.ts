/** A colour as SGR names it: an index into the 256-colour palette, or a 24-bit colour. */
export type Color =
  | { readonly kind: 'palette'; readonly index: number }
  | { readonly kind: 'rgb'; readonly r: number; readonly g: number; readonly b: number };

/** The attributes of a run of cells. `null` colours are the terminal's defaults. */
export interface CellStyle {
  readonly fg: Color | null;
  readonly bg: Color | null;
  readonly bold: boolean;
  readonly dim: boolean;
  readonly italic: boolean;
  readonly underline: boolean;
  readonly inverse: boolean;
  readonly strike: boolean;
  readonly hidden: boolean;
}

export const PLAIN: CellStyle = {
  fg: null,
  bg: null,
  bold: false,
  dim: false,
  italic: false,
  underline: false,
  inverse: false,
  strike: false,
  hidden: false,
};

/**
 * Applies the parameters of one SGR sequence (the text between `ESC [` and `m`).
 * Accepts both the semicolon form (`38;5;n`, `38;2;r;g;b`) and the ITU colon form
 * (`38:5:n`, `38:2::r:g:b`, `4:3`). Unknown codes and malformed colours are ignored.
 */
export function applySgr(start: CellStyle, params: string): CellStyle {
  const parts = params === '' ? [''] : params.split(';');
  let style = start;
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k] ?? '';
    if (part.includes(':')) {
      style = applyColonPart(style, part.split(':').map(toInt));
      continue;
    }
    const code = toInt(part);
    if (code === 38 || code === 48 || code === 58) {
      const mode = toInt(parts[k + 1] ?? '');
      const width = mode === 5 ? 1 : mode === 2 ? 3 : 0;
      const values = parts.slice(k + 2, k + 2 + width).map(toInt);
      k += 1 + Math.min(width, parts.length - k - 2);
      style = setColor(style, code, extendedColor(mode, values));
      continue;
    }
    style = applyCode(style, code);
  }
  return style;
}

function applyColonPart(style: CellStyle, sub: number[]): CellStyle {
  const [code = 0, mode = 0] = sub;
  if (code === 4) return { ...style, underline: mode !== 0 };
  if (code === 38 || code === 48 || code === 58) {
    // `38:2:r:g:b` or, per ITU T.416, `38:2:<colour space>:r:g:b`.
    const values = mode === 2 ? sub.slice(sub.length >= 6 ? 3 : 2, sub.length >= 6 ? 6 : 5) : sub.slice(2, 3);
    return setColor(style, code, extendedColor(mode, values));
  }
  return applyCode(style, code);
}

function applyCode(style: CellStyle, code: number): CellStyle {
  if (code >= 30 && code <= 37) return { ...style, fg: palette(code - 30) };
  if (code >= 40 && code <= 47) return { ...style, bg: palette(code - 40) };
  if (code >= 90 && code <= 97) return { ...style, fg: palette(code - 90 + 8) };
  if (code >= 100 && code <= 107) return { ...style, bg: palette(code - 100 + 8) };
  switch (code) {
    case 0: return PLAIN;
    case 1: return { ...style, bold: true };
    case 2: return { ...style, dim: true };
    case 3: return { ...style, italic: true };
    case 4: case 21: return { ...style, underline: true };
    case 7: return { ...style, inverse: true };
    case 8: return { ...style, hidden: true };
    case 9: return { ...style, strike: true };
    case 22: return { ...style, bold: false, dim: false };
    case 23: return { ...style, italic: false };
    case 24: return { ...style, underline: false };
    case 27: return { ...style, inverse: false };
    case 28: return { ...style, hidden: false };
    case 29: return { ...style, strike: false };
    case 39: return { ...style, fg: null };
    case 49: return { ...style, bg: null };
    default: return style;
  }
}

function extendedColor(mode: number, values: number[]): Color | undefined {
  if (!values.every((v) => Number.isInteger(v) && v >= 0 && v <= 255)) return undefined;
  if (mode === 5 && values.length === 1) return palette(values[0] ?? 0);
  if (mode === 2 && values.length === 3) {
    const [r = 0, g = 0, b = 0] = values;
    return { kind: 'rgb', r, g, b };
  }
  return undefined;
}

/** 58 is the underline colour: parsed so its arguments are consumed, then not drawn. */
function setColor(style: CellStyle, code: number, color: Color | undefined): CellStyle {
  if (!color || code === 58) return style;
  return code === 38 ? { ...style, fg: color } : { ...style, bg: color };
}

function palette(index: number): Color {
  return { kind: 'palette', index };
}

/** An empty parameter means 0; a runaway one is not a valid code. */
function toInt(text: string): number {
  if (text === '') return 0;
  return text.length > 9 ? Number.NaN : Number.parseInt(text, 10);
}

export function sameStyle(a: CellStyle, b: CellStyle): boolean {
  return (
    sameColor(a.fg, b.fg) && sameColor(a.bg, b.bg) && a.bold === b.bold && a.dim === b.dim &&
    a.italic === b.italic && a.underline === b.underline && a.inverse === b.inverse &&
    a.strike === b.strike && a.hidden === b.hidden
  );
}

function sameColor(a: Color | null, b: Color | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.kind === 'palette') return b.kind === 'palette' && a.index === b.index;
  return b.kind === 'rgb' && a.r === b.r && a.g === b.g && a.b === b.b;
}
