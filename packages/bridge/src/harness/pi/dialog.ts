import type { CardOption, Dialog, DialogCard } from '@collie/protocol';
import type { StyledLine } from '../screen/styled-line';
import type { Editor } from './editor';

/**
 * An extension's dialog in pi 0.73, drawn in the editor's place. `ctx.ui.select`:
 *
 * ```
 *  ⚠️ Dangerous command:         the title, as many rows as it has
 *    rm -rf build
 *  Allow?
 *  → Yes                         the options, the pointer on one
 *    No
 *  ↑↓ navigate  enter select  escape/ctrl+c cancel
 * ```
 *
 * and an extension's own UI (`ctx.ui.custom`, e.g. the shipped `question.ts`):
 *
 * ```
 *  Which database should the checkout service use?
 * > 1. PostgreSQL                numbered, the pointer `>`
 *      The shared cluster        a description under its option
 *   3. Type something.           opens a text field: typed at the terminal
 *  ↑↓ navigate • Enter to select • Esc to cancel
 * ```
 *
 * Stock pi asks nothing; its shipped `permission-gate.ts` example asks before `rm -rf`, `sudo`
 * and `chmod 777`, and `question.ts` asks the model's question. A picker the user opened
 * (`/model`: `→ fake-coder [fake] ✓` under a search field, no such hint) is a `menu`.
 */
const SELECT_HINT = /↑↓ navigate\b.*\benter (?:to )?select\b.*\b(?:cancel|esc)\b/iu;
const OPTION = /^ ?(→ |> | {2})(?:(\d+)\. )?(\S.*)$/u;
const DESCRIPTION = /^ {4,}\S/u;
const POINTER = /^ ?→ \S/u;
const APPROVAL = /\bAllow\?$|\bDangerous command\b|\bpermission\b/iu;
const FREE_TEXT = /^(?:Type something\.?|Type your own answer|Other)(?: ✎)?$/u;

/** The dialog drawn in the editor's place (or the popup under it), or null. */
export function readPiDialog(editor: Editor | null): Dialog | null {
  if (!editor) return null;
  const parts = selectParts(editor.inner);
  if (parts) return parts.title.some((t) => APPROVAL.test(t)) ? 'permission' : 'select';
  if (editor.popup || editor.inner.some((l) => POINTER.test(l.text))) return 'menu';
  return null;
}

/** The open select as a card (without its signature). */
export function readPiCard(editor: Editor | null, kind: Dialog): Omit<DialogCard, 'signature'> | null {
  const parts = editor && kind !== 'menu' ? selectParts(editor.inner) : null;
  if (!parts || parts.options.length === 0) return null;
  const title = parts.title.map((t) => t.trim()).filter((t) => t !== '');
  const single = title.length === 1;
  return {
    kind,
    title: single ? 'Question' : (title[0] ?? '').replace(/^[^\p{L}\p{N}]+/u, '').replace(/:$/u, ''),
    body: single ? [] : title.slice(1, -1),
    question: single || title.length > 1 ? (title.at(-1) ?? '') : '',
    options: parts.options,
    tabs: [],
    activeTab: null,
    answerable: true,
  };
}

function selectParts(inner: readonly StyledLine[]): { title: string[]; options: CardOption[] } | null {
  const rows = inner.map((l) => l.text.trimEnd());
  const hint = rows.findLastIndex((r) => SELECT_HINT.test(r));
  if (hint < 0) return null;
  // A blank row separates the options from the hints.
  let last = hint;
  while (last > 0 && (rows[last - 1] ?? '').trim() === '') last--;
  // Up from there over options and the descriptions under them; the block starts at an option.
  let first = last;
  for (let i = last - 1; i >= 0; i--) {
    const row = rows[i] ?? '';
    if (OPTION.test(row) && !DESCRIPTION.test(row)) first = i;
    else if (!DESCRIPTION.test(row)) break;
  }
  const options: CardOption[] = [];
  for (const row of rows.slice(first, last)) {
    const m = DESCRIPTION.test(row) ? null : OPTION.exec(row);
    const prev = options.at(-1);
    if (!m) {
      if (prev) options[options.length - 1] = { ...prev, description: [prev.description, row.trim()].filter((d) => d).join(' ') };
      continue;
    }
    const label = (m[3] ?? '').trim();
    options.push({ n: options.length + 1, label, description: null, checked: null, freeText: FREE_TEXT.test(label), focused: m[1] === '→ ' || m[1] === '> ' });
  }
  return { title: rows.slice(0, first).filter((r) => r.trim() !== ''), options };
}
