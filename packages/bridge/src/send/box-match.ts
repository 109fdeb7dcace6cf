/**
 * Does the agent's input box hold exactly the text a send typed? Pure: the box as the
 * screen reader read it (`ScreenReading.draft`), the text as it was pasted, and the agent's
 * paste placeholder (`AgentReader.pastePlaceholder`).
 *
 * The two sides are compared as the agent and tmux really show text, and exactly otherwise:
 * - Unicode NFC on both sides: Claude Code composes `e` + U+0301 into `é` as it inserts it.
 * - What a tmux capture drops is dropped from both sides: emoji skin-tone modifiers
 *   (U+1F3FB–1F3FF), the zero-width joiner, variation selectors, zero-width spaces and
 *   marks, tag characters (tmux 3.3a keeps one cell per base character; seen 2026-12-03).
 * - White space is not compared: a screen reader cannot tell a word wrapped mid-word from
 *   two words, nor a wide character's padding cell from a space.
 * Everything else counts, so a key someone typed into the box shows as a difference.
 */

/**
 * Characters a tmux capture of the box loses, removed from both sides: the invisible ones
 * (joiners, variation selectors, soft hyphens, zero-width spaces, tag characters: Unicode's
 * Default_Ignorable_Code_Point) and emoji skin-tone modifiers.
 */
const CAPTURE_LOSSES = /[\p{Default_Ignorable_Code_Point}\u{1F3FB}-\u{1F3FF}]/gu;

/**
 * Characters of the sent text a capture may show as nothing: an emoji tmux 3.3a does not
 * know the width of (drawn as blanks: 🪿), the rest of a joined emoji sequence after its
 * first (👨‍👩‍👧‍👦 captured as 👨‍👩‍👧), a flag's letters, a keycap's frame. Missing from the box they
 * still match; extra in the box they never do, so someone's typing still shows.
 */
const MAY_BE_MISSING = /[\p{Extended_Pictographic}\p{Regional_Indicator}\u20E3]/u;

/** The form both sides are compared in. */
export function boxForm(text: string): string {
  // Normalised last: taking out a joiner or a space can bring a mark next to its base.
  return text.replace(CAPTURE_LOSSES, '').replace(/\s+/gu, '').normalize('NFC');
}

/**
 * Where `want` (box form) shows in `box` (box form) starting at `from`: the end of the
 * match, or -1. Greedy: a character the box shows is matched at once; a character it lacks
 * is skipped only if it is one a capture may lose.
 */
function matchFrom(box: readonly string[], want: readonly string[], from: number, whole: boolean): number {
  let j = from;
  for (const c of want) {
    if (j < box.length && box[j] === c) j++;
    else if (!MAY_BE_MISSING.test(c)) return -1;
  }
  return whole && j !== box.length ? -1 : j;
}

/**
 * The span of `box` that shows `want` (both in box form): the one that shows most of it,
 * the last of those if several; null if none. Quadratic, so a long box is searched as is.
 */
function findOurs(box: string, want: string): [number, number] | null {
  const b = [...box];
  const w = [...want];
  if (b.length * w.length > 4_000_000) {
    const at = box.lastIndexOf(want);
    return at < 0 ? null : [[...box.slice(0, at)].length, [...box.slice(0, at)].length + w.length];
  }
  let best: [number, number] | null = null;
  for (let s = b.length - 1; s >= 0; s--) {
    const end = matchFrom(b, w, s, false);
    if (end > s && (!best || end - s > best[1] - best[0])) best = [s, end];
  }
  return best;
}

/**
 * - `ours`: the box holds the text (or the agent's placeholder for it), and nothing else;
 * - `ours_and_more`: it holds the text and something else: someone typed at the same time;
 * - `other`: something that is not (yet) the text;
 * - `empty`: nothing.
 */
export type BoxMatch = 'ours' | 'ours_and_more' | 'other' | 'empty';

export function matchBox(draft: string | null, typed: string, placeholder: RegExp | null): BoxMatch {
  if (draft === null) return 'empty';
  const box = boxForm(draft);
  if (box === '') return 'empty';
  const want = boxForm(typed);
  const folded = draft.replace(/\s+/gu, ' ').trim();
  if (box === want || placeholder?.test(folded) || matchFrom([...box], [...want], 0, true) > 0) return 'ours';
  if (want !== '' && findOurs(box, want)) return 'ours_and_more';
  if (placeholder && new RegExp(placeholder.source.replace(/^\^|\$$/gu, ''), placeholder.flags).test(folded)) return 'ours_and_more';
  return 'other';
}

/** The box with one copy of the typed text taken out (in box form): what someone else typed. */
export function withoutOurs(draft: string, typed: string): string {
  const box = boxForm(draft);
  const span = boxForm(typed) === '' ? null : findOurs(box, boxForm(typed));
  if (!span) return box;
  const b = [...box];
  return [...b.slice(0, span[0]), ...b.slice(span[1])].join('');
}

/** How many Backspaces take `text` out of a box: one per grapheme (a line break is one). */
export function graphemes(text: string): number {
  let n = 0;
  for (const _ of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text.normalize('NFC'))) n++;
  return n;
}
