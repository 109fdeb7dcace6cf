import type { CardOption } from '@collie/protocol';
import { isRule } from '../screen/rules';
import type { StyledLine } from '../screen/styled-line';
import { readOptionBlock, type ScreenOption } from './card-options';
import type { ClaudeCardParts } from './card-parts';

/**
 * The tab bar over an AskUserQuestion: ` ☐ Color ` for one question, or
 * `←  ☒ Focus area  ☐ Scope  ✔ Submit  →` when there are several or a Submit step. `☒` marks
 * an answered question; the open tab is drawn on a background colour.
 */
const TAB_BAR = /^\s*(?:←\s+)?[☐☒✔]\s/u;
const TAB_MARK = /(?<=^|\s)[☐☒✔](?=\s)/gu;
const REVIEW_HEADING = /^\s*Review your answers\s*$/u;
const READY = /^\s*Ready to submit your answers\?\s*$/u;
const CHAT = /^\s*(❯\s*)?Chat about this\s*$/u;
const TYPE_SOMETHING = /^Type something\.?$/u;
/** A preview question draws a mockup right of its options and a `Notes:` row under it. */
const PREVIEW = /^\s*(?:❯\s*)?\d+\.\s.*\s┌─+┐\s*$|^\s+Notes:\s/u;
/** Shown while a text field has the keyboard (the notes of a preview question). */
const EDITING_HINT = /\bctrl\+g to edit in\b/u;
const BODY_ROWS = 12;

interface Tab {
  label: string;
  mark: string;
  open: boolean;
}

/** Read an AskUserQuestion dialog (select, multi-select, preview, wizard tab, review). */
export function readQuestionCard(lines: readonly StyledLine[], review: boolean): ClaudeCardParts | null {
  const barAt = lines.findLastIndex((l) => TAB_BAR.test(l.text) && /[☐☒]/u.test(l.text));
  const below = (barAt >= 0 ? lines.slice(barAt + 1) : lines).map((l) => l.text);
  const tabs = barAt >= 0 ? readTabs(lines[barAt] as StyledLine) : [];
  // A lone single-select question shows one chip; more tabs (questions, Submit) make a tab bar.
  const tabbed = tabs.length > 1;
  let active = tabs.findIndex((t) => t.open);
  // Without colours (a plain capture) the review page still says which tab is open.
  if (active < 0 && review) active = tabs.findIndex((t) => t.mark === '✔');

  const preview = below.some((r) => PREVIEW.test(r));
  const block = readOptionBlock(below, preview ? 'label' : 'description');
  if (!block) return null;
  const firstRow = block.options[0]?.row ?? below.length;
  // With the tab bar scrolled away, the dialog starts below the last rule over the options.
  const from = barAt >= 0 ? 0 : below.slice(0, firstRow).findLastIndex((r) => isRule(r)) + 1;
  const lead = below.slice(from, firstRow).map((r) => r.trim()).filter((r) => r !== '');

  const options: Array<CardOption & { focused: boolean }> = block.options.map((o) => toCard(o));
  const lastRow = block.options.at(-1)?.row ?? 0;
  const chatAt = below.findIndex((r, i) => i > lastRow && CHAT.test(r));
  if (chatAt >= 0 && !options.some((o) => o.label === 'Chat about this')) {
    const n = (options.at(-1)?.n ?? 0) + 1;
    options.push({ n, label: 'Chat about this', description: null, checked: null, freeText: true, focused: CHAT.exec(below[chatAt] ?? '')?.[1] !== undefined });
  }
  // The row before `Chat about this` takes a typed answer; typing replaces its label.
  const chat = options.findIndex((o) => o.label === 'Chat about this');
  options.forEach((o, i) => {
    if (TYPE_SOMETHING.test(o.label) || (!review && !preview && chat > 0 && i === chat - 1)) o.freeText = true;
  });

  const focused = options.find((o) => o.focused);
  const editing = preview && below.slice(lastRow).some((r) => EDITING_HINT.test(r));
  let title = active >= 0 ? (tabs[active]?.label ?? '') : '';
  let question = lead.join(' ');
  let body: string[] = [];
  if (review) {
    title = lead.find((r) => REVIEW_HEADING.test(r)) ?? title;
    question = lead.find((r) => READY.test(r)) ?? '';
    body = lead.filter((r) => !REVIEW_HEADING.test(r) && !READY.test(r)).slice(0, BODY_ROWS);
  } else if (tabs.length === 1) title = tabs[0]?.label ?? '';

  return {
    title,
    body,
    question,
    options: options.map(({ focused: _, ...o }) => o),
    tabs: tabbed ? tabs.map((t) => ({ label: t.label, answered: t.mark === '☒' })) : [],
    activeTab: tabbed && active >= 0 ? active : null,
    digitsReach: !block.focusElsewhere && !editing && focused !== undefined && !focused.freeText,
  };
}

function toCard(o: ScreenOption): CardOption & { focused: boolean } {
  return { n: o.n, label: o.label, description: o.description, checked: o.checked, freeText: o.label === 'Chat about this', focused: o.focused };
}

/** The tabs of a tab-bar row: its mark, its label up to the next mark, whether it is open. */
function readTabs(line: StyledLine): Tab[] {
  const text = line.text;
  const marks = [...text.matchAll(TAB_MARK)].map((m) => m.index);
  return marks.map((at, k) => {
    const end = marks[k + 1] ?? text.length;
    const label = text.slice(at + 1, end).replace(/→\s*$/u, '').trim();
    return { label, mark: text[at] ?? '', open: line.marked[at + 2] === true };
  });
}
