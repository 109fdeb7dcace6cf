import { isRule } from '../screen/rules';

/** One numbered option as Claude draws it, with what the card and the key plan need. */
export interface ScreenOption {
  n: number;
  label: string;
  description: string | null;
  /** `[✔]` / `[ ]` boxes of a multi-select question; null where there are none. */
  checked: boolean | null;
  /** The `❯` pointer is on this row. */
  focused: boolean;
  /** A `shift+tab to approve with this feedback` row hangs under it: plan approval's text row. */
  feedback: boolean;
  /** Index of its row in the rows given. */
  row: number;
}

/** The numbered options of the dialog at the foot of the screen. */
export interface OptionBlock {
  options: ScreenOption[];
  /** The pointer sits on a row of the block that is no option (the `Submit` / `Next` row). */
  focusElsewhere: boolean;
}

/**
 * What an indented row under an option is: its description (AskUserQuestion draws one under
 * each label) or the rest of a label that wrapped (plan feedback, preview labels).
 */
export type Continuation = 'description' | 'label';

/** `❯ 1. Red`, `  2. [✔] Mushrooms`, `   3. No`: pointer, number, text. */
const OPTION_ROW = /^\s*(❯\s*)?(\d{1,2})\.\s+(.*?)\s*$/u;
const CHECKBOX = /^\[([ ✔✓xX×])\]\s+/u;
/** The `Submit` / `Next` row a multi-select draws under its options. */
const SUBMIT_ROW = /^\s*(❯\s*)?(?:Submit|Next)\s*$/u;
const FEEDBACK_HINT = /\bshift\+tab to approve with this feedback\b/u;
/** Key hints end the block: `Enter to select · ↑/↓ to navigate · Esc to cancel`, `◐ Medium effort ←/→ to adjust`. */
const HINT = /\b(?:Esc to (?:cancel|exit|close|go back)|Enter to \w+|ctrl\+\w to|to navigate|to adjust)\b/iu;
/** A preview mockup drawn right of the options, or the notes row under it. */
const PREVIEW_PART = /\s{2,}[┌│└├].*$/u;
const BOX_ROW = /^\s*[┌│└├]/u;
const NOTES_ROW = /^\s*Notes:/u;
/** The dashed rule Claude draws around a command, a diff or a plan. */
const DASHED = /^\s*╌{8,}\s*$/u;
/** Marks on a label that are state, not text: the current choice (`UI ✔`), a key hint. */
const STATE_MARKS = /(?:\s+✔|\s+\((?:shift\+tab|esc|tab)\))+$/iu;
/** How far above one option the one before it may sit (descriptions, a preview box). */
const MAX_GAP = 40;

/**
 * Read the numbered options nearest the foot of `rows`: the lowest numbered row, then upwards
 * through the numbers before it down to `1.` (so numbered lines of a plan above the options
 * are never taken for options), and the rows hanging under each.
 */
export function readOptionBlock(rows: readonly string[], continuation: Continuation): OptionBlock | null {
  const found: Array<{ row: number; n: number; pointer: boolean; text: string }> = [];
  let expected = 0;
  for (let i = rows.length - 1; i >= 0; i--) {
    const m = OPTION_ROW.exec(rows[i] ?? '');
    if (m) {
      const n = Number(m[2]);
      if (found.length > 0 && n !== expected) break;
      found.unshift({ row: i, n, pointer: m[1] !== undefined, text: m[3] ?? '' });
      expected = n - 1;
      if (expected === 0) break;
    } else if (found.length > 0 && (found[0]?.row ?? 0) - i > MAX_GAP) break;
  }
  if (found.length === 0) return null;

  let focusElsewhere = false;
  const options = found.map((f, k): ScreenOption => {
    const end = found[k + 1]?.row ?? rows.length;
    const more: string[] = [];
    let feedback = false;
    for (let i = f.row + 1; i < end; i++) {
      const row = rows[i] ?? '';
      if (isRule(row) || DASHED.test(row) || HINT.test(row)) break;
      const submit = SUBMIT_ROW.exec(row);
      if (submit) {
        if (submit[1] !== undefined) focusElsewhere = true;
        continue;
      }
      if (FEEDBACK_HINT.test(row)) feedback = true;
      else if (!BOX_ROW.test(row) && !NOTES_ROW.test(row)) {
        const text = row.replace(PREVIEW_PART, '').trim();
        if (text !== '') more.push(text);
      }
    }
    const box = CHECKBOX.exec(f.text);
    const text = (box ? f.text.slice(box[0].length) : f.text).replace(PREVIEW_PART, '');
    const joined = continuation === 'label' ? [text, ...more].join(' ') : text;
    return {
      n: f.n,
      label: joined.replace(STATE_MARKS, '').trim(),
      description: continuation === 'description' && more.length > 0 ? more.join(' ') : null,
      checked: box ? box[1] !== ' ' : null,
      focused: f.pointer,
      feedback,
      row: f.row,
    };
  });
  return { options, focusElsewhere };
}
