import type { CardOption } from '@collie/protocol';
import { isRule } from '../screen/rules';
import type { ClaudeCardParts } from './card-parts';

/**
 * The screens Claude Code 2.1.334 shows before a session starts, each waiting on the user
 * (captured from the real binary in a fresh config; see captures/README.md):
 * - "Detected a custom API key in your environment … Do you want to use this API key?" over
 *   `Yes` / `❯ No (recommended)`, drawn without numbers;
 * - "Make auto mode your default permission mode?" over `❯ Yes, set auto mode as my default
 *   permission mode` / `No, keep manual mode`, at every start while settings pin another mode;
 * - onboarding's theme picker, "Choose the text style that looks best with your terminal",
 *   with `✔` on the current theme;
 * - onboarding's "Security notes:" and `Press Enter to continue`.
 */
const SETUP = [
  /\bDo you want to use this API key\?/u,
  /\bMake auto mode your default permission mode\?/u,
  /\bChoose the text style that looks best with your terminal\b/u,
  /^\s*Press Enter to continue(?:…|\.\.\.)?\s*$/u,
];
const PRESS_ENTER = /^\s*Press Enter to continue(?:…|\.\.\.)?\s*$/u;
/** The pointer on a row drawn without a number: `❯ No, exit`, `❯ ✔ Auto (match terminal)`. */
const POINTER_ROW = /^\s*❯\s+(?!\d+\.\s)\S/u;
/** Marks before a label that are state, not text: the pointer and the current choice. */
const LEAD = /^[\s❯✔]*/u;
/** The foot of the welcome logo (`.......█ █   █ █......`), above the first onboarding step. */
const LOGO_FOOT = /^\s*\.{6,}/u;
const TOP_EDGE = /^\s*▔{8,}\s*$/u;
const HINT = /\b(?:Enter to \w+|Esc to \w+)\b/u;

/** One of the screens above is on `rows` (the screen's text rows, no input box drawn). */
export function isSetupScreen(rows: readonly string[]): boolean {
  return rows.some((r) => SETUP.some((re) => re.test(r)));
}

/**
 * Read a setup screen into a card: its choices in screen order (Home, then Down n-1 times and
 * Enter picks choice n), or for notes to acknowledge one `Continue` choice (Enter).
 */
export function readSetupCard(rows: readonly string[]): ClaudeCardParts | null {
  const list = choiceRows(rows);
  const first = list[0]?.row ?? lastIndex(rows, rows.length, (r) => PRESS_ENTER.test(r));
  if (first < 0) return null;
  const options: CardOption[] =
    list.length > 0
      ? list.map((c, i) => ({ n: i + 1, label: c.label, description: null, checked: null, freeText: false }))
      : [{ n: 1, label: 'Continue', description: null, checked: null, freeText: false }];

  const top = lastIndex(rows, first, (r) => isRule(r) || TOP_EDGE.test(r) || LOGO_FOOT.test(r));
  const text = rows
    .slice(top + 1, first)
    .map((r) => r.trim())
    .filter((r) => r !== '' && !HINT.test(r));
  const asks = text.findIndex((r) => r.endsWith('?'));
  // A screen that asks nothing in words asks its first line after the title ("Choose the text style …").
  const q = asks >= 0 ? asks : list.length > 0 && text.length > 1 ? 1 : -1;
  const question = q >= 0 ? (text[q] ?? '') : '';
  const title = q === 0 ? '' : (text[0] ?? '');
  const body = text.filter((_, i) => i !== q && !(i === 0 && title !== ''));
  return { title, body, question, options, tabs: [], activeTab: null, digitsReach: true };
}

interface Choice {
  row: number;
  label: string;
}

/**
 * The column of choices around the lowest unnumbered pointer row: the rows next to it, with no
 * blank row between, whose text starts in the same column once the pointer and `✔` are set aside.
 */
function choiceRows(rows: readonly string[]): Choice[] {
  const at = lastIndex(rows, rows.length, (r) => POINTER_ROW.test(r));
  if (at < 0) return [];
  const column = (r: string) => LEAD.exec(r)?.[0].length ?? 0;
  const want = column(rows[at] ?? '');
  const fits = (r: string | undefined) => r !== undefined && r.trim() !== '' && column(r) === want && !isRule(r);
  let from = at;
  while (from > 0 && fits(rows[from - 1])) from--;
  let to = at;
  while (to + 1 < rows.length && fits(rows[to + 1])) to++;
  const picked: Choice[] = [];
  for (let i = from; i <= to; i++) picked.push({ row: i, label: (rows[i] ?? '').slice(want).trim() });
  return picked.length < 2 ? [] : picked;
}

function lastIndex(rows: readonly string[], before: number, test: (row: string) => boolean): number {
  for (let i = Math.min(before, rows.length) - 1; i >= 0; i--) if (test(rows[i] ?? '')) return i;
  return -1;
}
