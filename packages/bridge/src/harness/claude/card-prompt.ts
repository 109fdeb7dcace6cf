import type { CardOption, Dialog } from '@collie/protocol';
import { isRule } from '../screen/rules';
import { readOptionBlock, type ScreenOption } from './card-options';
import type { ClaudeCardParts } from './card-parts';

type PromptKind = Extract<Dialog, 'permission' | 'plan' | 'trust' | 'menu'>;

const BODY_ROWS = 12;
const DASHED = /^\s*╌{8,}\s*$/u;
/** The top edge of a full-screen dialog (plan approval, the `/model` picker). */
const TOP_EDGE = /^\s*▔{8,}\s*$/u;
/** The auto-mode advert in a permission dialog: not about the tool call. */
const TIP = /^\s*Tip:/u;
const PLAN_TITLE = /^\s*(?:Ready to code\?|Exit plan mode\?)\s*$/u;
const PLAN_INTRO = /^\s*Here is Claude's plan:\s*$/u;
/** The text rows of the permission and plan dialogs: `No, and tell Claude what to do differently`. */
const TELL_CLAUDE = /\btell Claude what to (?:do|change)\b/iu;
/** While the user amends an answer (Tab), the hint row loses `Tab to amend` and the pointed row is a text field. */
const AMENDING = /^\s*Esc to cancel\s*$/u;
/** A permission whose Yes and No take words too: Tab turns the pointed one into a text field. */
const AMEND_HINT = /\bTab to amend\b/u;
/** What Tab turns `Yes` (the first option) and `No` into, as 2.1.334 labels them. */
const AMENDED = { Yes: 'Yes, and tell Claude what to do next', No: 'No, and tell Claude what to do differently' } as const;
/** 2.1.334 draws the folder-trust choices without numbers, over `Enter to confirm · Esc to cancel`. */
const CONFIRM_HINT = /\bEnter to confirm\b/u;

/** Read a permission, plan approval, folder trust or picker dialog from the screen's rows. */
export function readPromptCard(rows: readonly string[], kind: PromptKind): ClaudeCardParts | null {
  const block = readOptionBlock(rows, 'label');
  const screen = block?.options ?? (kind === 'trust' ? unnumbered(rows) : []);
  const first = screen[0]?.row;
  if (first === undefined) return null;

  const top = Math.max(lastIndex(rows, first, (r) => isRule(r) || TOP_EDGE.test(r)), -1);
  const asked = questionRows(rows, first);
  const text = (from: number, to: number) =>
    rows.slice(from, to).filter((r) => r.trim() !== '' && !isRule(r) && !DASHED.test(r) && !TOP_EDGE.test(r) && !TIP.test(r)).map((r) => r.trim());

  let title = '';
  let body: string[];
  let question = asked.text;
  if (kind === 'plan') {
    const titleAt = lastIndex(rows, first, (r) => PLAN_TITLE.test(r));
    const introAt = lastIndex(rows, first, (r) => PLAN_INTRO.test(r));
    title = titleAt >= 0 ? (rows[titleAt] ?? '').trim() : '';
    const start = Math.max(titleAt, introAt, lastIndex(rows, first, (r) => TOP_EDGE.test(r))) + 1;
    body = text(start, asked.from).filter((r) => !PLAN_INTRO.test(r));
  } else {
    const titled = text(top + 1, first);
    title = titled[0] ?? '';
    const titleAt = rows.findIndex((r, i) => i > top && r.trim() === title);
    body = text(titleAt + 1, asked.from);
    if (kind === 'trust' && question === '') question = /[^.!?:]*\?/u.exec(body.join(' '))?.[0].trim() ?? '';
  }

  const amending = rows.slice(first).some((r) => AMENDING.test(r));
  const amendable = kind === 'permission' && rows.slice(first).some((r) => AMEND_HINT.test(r));
  const options = screen.map((o, i): CardOption => {
    const freeText = TELL_CLAUDE.test(o.label) || o.feedback || (kind === 'permission' && amending && o.focused);
    if (kind === 'menu') return { ...menuEntry(o.label), n: o.n, checked: null, freeText };
    const amend = amendable && !freeText ? amendLabel(o.label, i) : undefined;
    return { n: o.n, label: o.label, description: null, checked: null, freeText, ...(amend ? { amend } : {}) };
  });
  const focused = screen.findIndex((o) => o.focused);
  const onChoice = focused >= 0 && options[focused]?.freeText === false;
  return {
    title,
    body: body.slice(0, BODY_ROWS),
    question,
    options,
    tabs: [],
    activeTab: null,
    // Folder trust is answered with Home / Down / Enter, which do not depend on the pointer.
    digitsReach: kind === 'trust' || onChoice,
  };
}

/**
 * The rows right above the first option (blank rows skipped), up to a blank row or a rule: the
 * question, when they ask one (`Do you want to proceed?`, `… Would you like to proceed?`).
 */
function questionRows(rows: readonly string[], first: number): { text: string; from: number } {
  let end = first;
  while (end > 0 && (rows[end - 1] ?? '').trim() === '') end--;
  let from = end;
  while (from > 0) {
    const row = rows[from - 1] ?? '';
    if (row.trim() === '' || isRule(row) || DASHED.test(row) || TOP_EDGE.test(row)) break;
    from--;
  }
  const text = rows.slice(from, end).map((r) => r.trim()).join(' ');
  return text.includes('?') ? { text, from } : { text: '', from: first };
}

/** `/model` rows carry the description on the same row, after a run of spaces; `✔` marks the current pick. */
function menuEntry(text: string): { label: string; description: string | null } {
  const m = /^(.*?)\s{2,}(\S.*)$/u.exec(text);
  const label = (m ? (m[1] ?? '') : text).replace(/\s*✔$/u, '').trim();
  return { label, description: m ? (m[2] ?? '').trim() : null };
}

/** Choices drawn without numbers, in one column right above the `Enter to confirm` hint. */
function unnumbered(rows: readonly string[]): ScreenOption[] {
  const hint = lastIndex(rows, rows.length, (r) => CONFIRM_HINT.test(r));
  const picked: ScreenOption[] = [];
  let column = -1;
  for (let i = hint - 1; i >= 0; i--) {
    const row = rows[i] ?? '';
    if (row.trim() === '') {
      if (picked.length === 0) continue;
      break;
    }
    const m = /^(\s*)(❯\s*)?(\S.*?)\s*$/u.exec(row);
    const at = (m?.[1]?.length ?? 0) + (m?.[2]?.length ?? 0);
    if (column >= 0 && at !== column) break;
    column = at;
    picked.unshift({ n: 0, label: m?.[3] ?? '', description: null, checked: null, focused: m?.[2] !== undefined, feedback: false, row: i });
  }
  // One line alone is the paragraph above, not a list.
  return picked.length < 2 ? [] : picked.map((o, k) => ({ ...o, n: k + 1 }));
}

/** The amend label of a permission option: `Yes` first, `No` anywhere; the rest take no words. */
function amendLabel(label: string, index: number): string | undefined {
  if (index === 0 && label === 'Yes') return AMENDED.Yes;
  return label === 'No' ? AMENDED.No : undefined;
}

function lastIndex(rows: readonly string[], before: number, test: (row: string) => boolean): number {
  for (let i = Math.min(before, rows.length) - 1; i >= 0; i--) if (test(rows[i] ?? '')) return i;
  return -1;
}
