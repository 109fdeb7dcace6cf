import { type Span, parseScreen } from './sgr';
import { drawable } from './terminal-glyphs';

/**
 * The rows the mirror draws: tmux captures the whole pane height, so a short screen ends in
 * blank rows; those below the last text and the cursor are dropped, so the mirror shows the
 * screen's top rather than a blank box under it. Pure.
 */
export function screenRows(lines: readonly string[], cursorY: number | null): Span[][] {
  const rows = parseScreen(lines.map(drawable));
  let last = rows.length - 1;
  while (last > (cursorY ?? -1) && last >= 0 && rows[last]!.every((span) => span.text.trim() === '')) last--;
  return rows.slice(0, last + 1);
}
