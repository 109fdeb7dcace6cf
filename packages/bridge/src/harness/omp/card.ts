import type { CardOption, Dialog, DialogCard } from '@collie/protocol';
import type { CardAnswer, KeyPlan } from '../agent';
import type { StyledLine } from '../screen/styled-line';
import { APPROVAL_HINT, APPROVAL_TITLE } from './dialog';

/**
 * oh-my-pi's ask dialog (the `ask` tool; 18.x as captured in `captures/omp--ask*.txt`):
 *
 * ```
 * ╭─ Ask ────────────╮
 * │  Colour  Size  Submit │  tab row, when there is a Submit step (open tab on a background colour)
 * │ Which colour …?   │   the question (or `Review answers`)
 * ├──────────────────┤
 * │ ❯ ○ Black         │   options behind ○ (one answer) or ☐ / ☑ (several)
 * │       The classic coat   its description, indented under it
 * │   ○ Other (type your own)
 * ├──────────────────┤
 * │ Enter select · n note · ↑/↓ move · Esc cancel │
 * ╰──────────────────╯
 * ```
 *
 * Its options carry no numbers: an answer moves the pointer from the top (Up stops at the first
 * row), so the plan holds wherever the pointer was ({@link ompKeys}).
 */
const ASK_TITLE = /^\s*╭─ Ask(?: \(\d+s\))? ─+╮\s*$/u;
const SECTION = /^\s*├─+┤\s*$/u;
const BOTTOM = /^\s*╰─+╯\s*$/u;
const OPTION = /^(❯\s+)?([○●☐☑☒])\s+(.+)$/u;
const SUBMIT_ROW = /^(❯\s+)?Submit$/u;
const TAB_ROW = /(?:^|\s)Submit$/u;
const TYPED = /\btype your own\b/iu;
const BODY_ROWS = 12;
/** A description row sits deeper than an option's marker (`│       The classic coat`). */
const DESCRIPTION = /^[│┃]\s{5,}\S/u;

/** Read omp's ask dialog, or a picker's bare card; null for anything else. */
export function readOmpCard(lines: readonly StyledLine[], kind: Dialog): Omit<DialogCard, 'signature'> | null {
  const bare = { kind, title: '', body: [], question: '', options: [], tabs: [], activeTab: null, answerable: false };
  // Pickers (models, settings, sessions, the slash palette) are shown, never answered.
  if (kind === 'menu') return bare;
  if (kind === 'permission') return approvalCard(lines);
  const titleAt = lines.findLastIndex((l) => ASK_TITLE.test(l.text));
  if (titleAt < 0) return null;
  const inner: StyledLine[] = [];
  for (const line of lines.slice(titleAt + 1)) {
    if (BOTTOM.test(line.text)) break;
    inner.push(line);
  }
  const sections: StyledLine[][] = [[]];
  for (const line of inner) {
    if (SECTION.test(line.text)) sections.push([]);
    else sections.at(-1)?.push(line);
  }
  const head = (sections[0] ?? []).filter((l) => side(l.text) !== '');
  const tabLine = head.find((l) => TAB_ROW.test(side(l.text)));
  const tabs = tabLine ? readTabs(tabLine) : [];
  const asked = head.filter((l) => l !== tabLine).map((l) => side(l.text));

  const options: CardOption[] = [];
  const body: string[] = [];
  for (const line of sections[1] ?? []) {
    const row = side(line.text);
    if (row === '') continue;
    const m = OPTION.exec(row);
    const submit = SUBMIT_ROW.exec(row);
    const last = options.at(-1);
    if (m) {
      const box = m[2] ?? '';
      const label = (m[3] ?? '').trim();
      options.push({ n: options.length + 1, label, description: null, checked: box === '○' || box === '●' ? null : box !== '☐', freeText: TYPED.test(label) });
    } else if (submit) options.push({ n: options.length + 1, label: 'Submit', description: null, checked: null, freeText: false });
    else if (last && last.label !== 'Submit' && DESCRIPTION.test(line.text.trim())) last.description = last.description === null ? row : `${last.description} ${row}`;
    else body.push(row);
  }
  const active = tabs.findIndex((t) => t.open);
  return {
    ...bare,
    title: 'Ask',
    body: body.slice(0, BODY_ROWS),
    question: asked.join(' '),
    options,
    tabs: tabs.map((t) => ({ label: t.label, answered: false })),
    activeTab: active >= 0 ? active : null,
    answerable: options.length > 0,
  };
}

/** The text of a row inside the box, side borders and padding cut. */
function side(text: string): string {
  return text.trim().replace(/^[│┃]/u, '').replace(/[│┃█]$/u, '').trim();
}

/** Tabs are separated by runs of spaces; the open one is drawn on a background colour. */
function readTabs(line: StyledLine): Array<{ label: string; open: boolean }> {
  const tabs: Array<{ label: string; open: boolean }> = [];
  const inside = line.text.indexOf('│') + 1;
  for (const m of line.text.slice(inside).matchAll(/\S+(?: \S+)*/gu)) {
    if (m[0] === '│') continue;
    const at = inside + m.index;
    tabs.push({ label: m[0], open: line.marked[at] === true });
  }
  return tabs;
}

/** An indented row of the approval box: an option (`❯ Approve`, `  Deny`). */
const APPROVAL_OPTION = /^\s{2,}(?:❯\s+)?(\S.*)$/u;

/**
 * omp 18's tool approval: the tool as the title, what it runs as the body (`Command: rm -rf
 * build`), its options (`Approve`, `Deny`) behind a `❯` pointer. Answered with the arrows and
 * Enter ({@link ompKeys}).
 */
function approvalCard(lines: readonly StyledLine[]): Omit<DialogCard, 'signature'> | null {
  const at = lines.findLastIndex((l) => APPROVAL_TITLE.test(l.text.trim()));
  if (at < 0) return null;
  const tool = APPROVAL_TITLE.exec(lines[at]!.text.trim())?.[1] ?? '';
  const body: string[] = [];
  const options: CardOption[] = [];
  for (const line of lines.slice(at + 1)) {
    const t = line.text.trim();
    if (BOTTOM.test(line.text)) break;
    const inner = t.replace(/^│/u, '').replace(/│$/u, '');
    if (inner.trim() === '' || APPROVAL_HINT.test(inner.trim())) continue;
    const m = APPROVAL_OPTION.exec(inner);
    if (m) options.push({ n: options.length + 1, label: (m[1] ?? '').trim(), description: null, checked: null, freeText: false });
    else if (options.length === 0) body.push(inner.trim());
  }
  if (options.length === 0) return null;
  return { kind: 'permission', title: tool, body: body.slice(0, BODY_ROWS), question: `Allow tool: ${tool}`, options, tabs: [], activeTab: null, answerable: true };
}

/**
 * The keys that answer omp 18's dialogs, whose options carry no digits and whose pointer stops
 * at the first row: Up × (options − 1) takes it to the top wherever it was, then Down to the
 * chosen option and Enter (the tool approval; an ask question, which then opens its next tab or
 * submits; the Submit tab's review). A multi-select question: from the top, Down to each box to
 * toggle and Space, then Enter (a lone question is submitted, otherwise the next tab opens).
 */
export function ompKeys(card: DialogCard, answer: CardAnswer): KeyPlan {
  const top = Array<string>(Math.max(0, card.options.length - 1)).fill('Up');
  if (card.kind === 'multiselect') {
    if (answer.toggle === undefined) return { ok: false, reason: 'a multi-select question takes the boxes to toggle' };
    const boxes = [...answer.toggle].sort((a, b) => a - b);
    if (boxes.some((n) => !Number.isInteger(n) || n < 1 || n > card.options.length)) return { ok: false, reason: `a box to toggle is not on this card: ${answer.toggle.join(', ')}` };
    const steps = [...top];
    let at = 1;
    for (const n of boxes) {
      steps.push(...Array<string>(n - at).fill('Down'), 'Space');
      at = n;
    }
    return { ok: true, steps: [...steps, 'Enter'] };
  }
  if (answer.toggle !== undefined) return { ok: false, reason: 'this dialog takes one option, not ticks' };
  const n = answer.option ?? 0;
  if (!Number.isInteger(n) || n < 1 || n > card.options.length) return { ok: false, reason: `option ${n} is not on this card` };
  return { ok: true, steps: [...top, ...Array<string>(n - 1).fill('Down'), 'Enter'] };
}
