/** The six levels of xterm's 6×6×6 colour cube (indexes 16–231). */
const CUBE_LEVELS = [0, 95, 135, 175, 215, 255] as const;

/**
 * The colour of a 256-colour palette entry from 16 up, as `#rrggbb`, the way xterm defines it:
 * 16–231 a colour cube, 232–255 a grey ramp from 8 to 238. Entries 0–15 are the theme's own
 * and are drawn with classes instead, so this returns null for them and for anything out of range.
 */
export function paletteHex(index: number): string | null {
  if (!Number.isInteger(index) || index < 16 || index > 255) return null;
  if (index >= 232) {
    const level = 8 + (index - 232) * 10;
    return rgbHex(level, level, level);
  }
  const cube = index - 16;
  const r = CUBE_LEVELS[Math.floor(cube / 36)] ?? 0;
  const g = CUBE_LEVELS[Math.floor(cube / 6) % 6] ?? 0;
  const b = CUBE_LEVELS[cube % 6] ?? 0;
  return rgbHex(r, g, b);
}

export function rgbHex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}
