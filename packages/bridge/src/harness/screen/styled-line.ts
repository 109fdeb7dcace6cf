/**
 * One screen row with its escapes removed. `dim[i]` says whether the UTF-16 unit `text[i]`
 * was drawn faint (SGR 2): agents draw ghost suggestions and placeholders that way, and a
 * ghost is not something the user typed. `marked[i]` says whether it was set off by a
 * background colour or reverse video (how a TUI shows which tab is open); `marked` may end
 * before the text does, and cells past its end are not marked.
 */
export interface StyledLine {
  readonly text: string;
  readonly dim: readonly boolean[];
  readonly marked: readonly boolean[];
  /**
   * The background colour of each cell as its SGR parameters ('' for the default), present
   * only when some cell has one; may end before the text does. OpenCode tells its focused
   * button only by a colour the other buttons do not have.
   */
  readonly bg?: readonly string[];
}

/** A line with no styling, for tests and for text that carries no attributes. */
export function plainLine(text: string): StyledLine {
  return { text, dim: new Array<boolean>(text.length).fill(false), marked: [] };
}

/** The line's text with every faint cell removed: what the user actually typed. */
export function typedText(line: StyledLine): string {
  let out = '';
  for (let i = 0; i < line.text.length; i++) {
    if (!line.dim[i]) out += line.text[i];
  }
  return out;
}

/** The part of a line from `start` on, keeping the attributes aligned. */
export function sliceLine(line: StyledLine, start: number, end?: number): StyledLine {
  const cut = { text: line.text.slice(start, end), dim: line.dim.slice(start, end), marked: line.marked.slice(start, end) };
  return line.bg ? { ...cut, bg: line.bg.slice(start, end) } : cut;
}

/** Index of the last line with any non-space character, or -1. */
export function lastNonEmpty(lines: readonly StyledLine[]): number {
  for (let i = lines.length - 1; i >= 0; i--) {
    if ((lines[i]?.text ?? '').trim() !== '') return i;
  }
  return -1;
}

/** The texts of the last `count` lines ending at the last non-empty one. */
export function bottomTexts(lines: readonly StyledLine[], count: number): string[] {
  const end = lastNonEmpty(lines);
  if (end < 0) return [];
  const start = Math.max(0, end - count + 1);
  return lines.slice(start, end + 1).map((l) => l.text);
}
