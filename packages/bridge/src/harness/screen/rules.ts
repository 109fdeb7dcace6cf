import type { StyledLine } from './styled-line';

const RULE_CHAR = '─';
/** Corners and junctions: a row with these is a box edge or a table, not a plain rule. */
const JUNCTIONS = /[│┃┼┬┴├┤╭╮╰╯┌┐└┘]/;

/**
 * A horizontal rule: a row of `─` (U+2500), possibly carrying a short label. Claude draws its
 * input box between two of these and puts the session name into the top one
 * (`────…──── refactor the auth module ──`), so a label is allowed as long as the rule
 * characters are at least half of the row.
 */
export function isRule(text: string): boolean {
  const t = text.trim();
  if (!t.startsWith(RULE_CHAR + RULE_CHAR) || !t.endsWith(RULE_CHAR)) return false;
  if (JUNCTIONS.test(t)) return false;
  let dashes = 0;
  let total = 0;
  for (const c of t) {
    total++;
    if (c === RULE_CHAR) dashes++;
  }
  return dashes >= 8 && dashes * 2 >= total;
}

/** The rows strictly between two rules, with where they sit. */
export interface RuledBox {
  /** Index of the top rule. */
  top: number;
  /** Index of the bottom rule. */
  bottom: number;
  /** The rows between the rules. */
  inner: StyledLine[];
  /** Width of the bottom rule in characters: the box's width on screen. */
  width: number;
}

export interface RuledBoxOptions {
  /** Accept a candidate box by its first inner row (e.g. "starts with the prompt glyph"). */
  firstRow: (line: StyledLine) => boolean;
  /** Most rows a box may hold. */
  maxInner?: number;
  /** Most non-empty rows allowed below the bottom rule (footers, status lines). */
  maxBelow?: number;
}

/**
 * Find the lowest pair of consecutive rules whose content passes `firstRow`. Only pairs near
 * the bottom count: an input box is drawn at the foot of the screen with at most a few footer
 * rows under it, so a pair higher up is history, not the live box.
 */
export function findRuledBox(lines: readonly StyledLine[], opts: RuledBoxOptions): RuledBox | null {
  const maxInner = opts.maxInner ?? 40;
  const maxBelow = opts.maxBelow ?? 25;
  const rules: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (isRule(lines[i]?.text ?? '')) rules.push(i);
  }
  for (let k = rules.length - 1; k >= 1; k--) {
    const top = rules[k - 1] as number;
    const bottom = rules[k] as number;
    if (countNonEmpty(lines, bottom + 1, lines.length) > maxBelow) return null;
    const count = bottom - top - 1;
    if (count < 1 || count > maxInner) continue;
    const first = lines[top + 1];
    if (first && opts.firstRow(first)) {
      const width = [...(lines[bottom]?.text.trim() ?? '')].length;
      return { top, bottom, inner: lines.slice(top + 1, bottom), width };
    }
  }
  return null;
}

function countNonEmpty(lines: readonly StyledLine[], from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) if ((lines[i]?.text ?? '').trim() !== '') count++;
  return count;
}
