/**
 * Glyphs no bundled font has, drawn with the one that looks the same: Claude Code's result
 * marker ⎿ (U+23BF, "dentistry symbol light vertical and bottom right") is the shape of └
 * (U+2514), which DejaVu Sans Mono draws one cell wide. Display only; the bridge's text is untouched.
 */
const SAME_SHAPE: ReadonlyMap<string, string> = new Map([['\u23BF', '\u2514']]);
const PATTERN = new RegExp(`[${[...SAME_SHAPE.keys()].join('')}]`, 'g');

export function drawable(line: string): string {
  return line.replace(PATTERN, (glyph) => SAME_SHAPE.get(glyph) ?? glyph);
}
