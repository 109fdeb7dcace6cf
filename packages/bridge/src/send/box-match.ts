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

/** Characters a tmux capture of the box may lose; removed from both sides. */
const CAPTURE_LOSSES = /[\u{1F3FB}-\u{1F3FF}\u200B-\u200F\u2060-\u2064\uFEFF\uFE00-\uFE0F\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}\u034F\u180E]/gu;

/** The form both sides are compared in. */
export function boxForm(text: string): string {
  // Normalised last: taking out a joiner or a space can bring a mark next to its base.
  return text.replace(CAPTURE_LOSSES, '').replace(/\s+/gu, '').normalize('NFC');
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
  if (box === want || placeholder?.test(folded)) return 'ours';
  if (want !== '' && box.includes(want)) return 'ours_and_more';
  if (placeholder && new RegExp(placeholder.source.replace(/^\^|\$$/gu, ''), placeholder.flags).test(folded)) return 'ours_and_more';
  return 'other';
}

/** The box with one copy of the typed text taken out (in box form): what someone else typed. */
export function withoutOurs(draft: string, typed: string): string {
  const box = boxForm(draft);
  const want = boxForm(typed);
  const at = box.lastIndexOf(want);
  return at < 0 || want === '' ? box : box.slice(0, at) + box.slice(at + want.length);
}

/** How many Backspaces take `text` out of a box: one per grapheme (a line break is one). */
export function graphemes(text: string): number {
  let n = 0;
  for (const _ of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text.normalize('NFC'))) n++;
  return n;
}
