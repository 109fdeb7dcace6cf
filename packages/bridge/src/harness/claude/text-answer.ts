import type { DialogCard } from '@collie/protocol';
import type { KeyPlan } from '../agent';
import { bottomTexts, type StyledLine } from '../screen/styled-line';

/** The focused numbered row of a dialog: `❯ 4. Teal please`, `   ❯ 3. Tell Claude what to change`. */
const FOCUSED_OPTION = /^\s*❯\s*\d{1,2}\.\s?(.*?)\s*$/u;
const HINT_ROWS = 40;
/** A permission being amended loses `Tab to amend` from its hint row. */
const AMENDING = /^\s*Esc to cancel\s*$/u;
const AMEND_PREFIX = /^(?:Yes|No), /u;

/**
 * The keys that put the pointer into a Claude Code dialog's text field, measured on 2.1.334:
 * - a text option (AskUserQuestion's `Type something.`, plan approval's `Tell Claude what to
 *   change`): its digit moves the pointer onto it without choosing; the row then takes typing;
 * - a permission's `Yes` / `No` with `Tab to amend`: its digit would choose it at once, so Home,
 *   Down to it, then Tab turns it into `No, and tell Claude what to do differently`.
 */
export function claudeTextKeys(card: DialogCard, option: number): KeyPlan {
  const chosen = card.options.find((o) => o.n === option);
  if (!chosen) return { ok: false, reason: `option ${option} is not on this card` };
  if (chosen.freeText) {
    if (chosen.label === 'Chat about this') return { ok: false, reason: '"Chat about this" ends the question; it takes no words here' };
    return option <= 9 ? { ok: true, steps: [String(option)] } : { ok: false, reason: `option ${option} has no digit key` };
  }
  if (chosen.amend === undefined) return { ok: false, reason: `option ${option} takes no words` };
  return { ok: true, steps: ['Home', ...Array<string>(option - 1).fill('Down'), 'Tab'] };
}

/**
 * What the text field under the pointer holds: the focused numbered row's text (Claude draws the
 * typed words, or the placeholder, in place of the label), or null when no numbered row is focused.
 */
export function claudeFieldText(lines: readonly StyledLine[]): string | null {
  const rows = bottomTexts(lines, HINT_ROWS);
  const amending = rows.some((r) => AMENDING.test(r));
  for (let i = rows.length - 1; i >= 0; i--) {
    const m = FOCUSED_OPTION.exec(rows[i] ?? '');
    if (!m) continue;
    const text = m[1] ?? '';
    // An amended permission keeps its choice in front of the words: `❯ 4. No, use echo instead`.
    return amending ? text.replace(AMEND_PREFIX, '') : text;
  }
  return null;
}
