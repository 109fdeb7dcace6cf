import type { CardOption, Dialog, DialogCard } from '@collie/protocol';
import type { StyledLine } from '../screen/styled-line';
import type { Editor } from './editor';

/**
 * An extension's `ctx.ui.select` in pi 0.73, drawn in the editor's place:
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
 * Stock pi asks nothing; its shipped `permission-gate.ts` example asks this before `rm -rf`,
 * `sudo` and `chmod 777`, and `question.ts` asks a question the same way.
 */
const SELECT_HINT = /↑↓ navigate\s+enter select\s+escape\/ctrl\+c cancel/u;
const OPTION = /^ (→ | {2})(\S.*)$/u;
const APPROVAL = /\bAllow\?$|\bDangerous command\b|\bpermission\b/iu;

/** The dialog drawn in the editor's place, or null. */
export function readPiDialog(editor: Editor | null): Dialog | null {
  const parts = editor ? selectParts(editor.inner) : null;
  if (!parts) return null;
  return parts.title.some((t) => APPROVAL.test(t)) ? 'permission' : 'select';
}

/** The open select as a card (without its signature). */
export function readPiCard(editor: Editor | null, kind: Dialog): Omit<DialogCard, 'signature'> | null {
  const parts = editor ? selectParts(editor.inner) : null;
  if (!parts || parts.options.length === 0) return null;
  const title = parts.title.map((t) => t.trim()).filter((t) => t !== '');
  return {
    kind,
    title: (title[0] ?? '').replace(/^[^\p{L}\p{N}]+/u, '').replace(/:$/u, ''),
    body: title.slice(1, -1),
    question: title.length > 1 ? (title.at(-1) ?? '') : '',
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
  let first = last;
  while (first > 0 && OPTION.test(rows[first - 1] ?? '')) first--;
  const options = rows.slice(first, last).map((row, i): CardOption => {
    const m = OPTION.exec(row);
    return { n: i + 1, label: (m?.[2] ?? '').trim(), description: null, checked: null, freeText: false, focused: m?.[1] === '→ ' };
  });
  return { title: rows.slice(0, first).filter((r) => r.trim() !== ''), options };
}
