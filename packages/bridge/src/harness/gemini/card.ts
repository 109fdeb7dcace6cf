import type { CardOption, Dialog, DialogCard } from '@collie/protocol';
import type { CardAnswer, KeyPlan } from '../agent';
import type { StyledLine } from '../screen/styled-line';
import { findDialog, OPTION, unboxed } from './layout';

/** `(esc)` after an option: its key, not its words. */
const KEY_HINT = /\s+\(esc\)$/u;
/** The approval's heading row: `? Shell  rm -rf build`. */
const HEADING = /^\?\s+(\S+)\s+(.*)$/u;
/** The edges of the nested box around the command. */
const EDGE = /^[╭╰]─+[╮╯]$/u;

/**
 * The open Gemini CLI dialog as a card: for a tool approval, the tool as the title and its
 * command as the body; for folder trust, the explanation as the body.
 */
export function readGeminiCard(lines: readonly StyledLine[], kind: Dialog): Omit<DialogCard, 'signature'> | null {
  const dialog = findDialog(lines);
  if (!dialog || dialog.kind !== kind) return null;
  const rows = lines
    .slice(dialog.top + 1, dialog.bottom)
    .map((l) => unboxed(l.text))
    .filter((r) => r !== '' && !EDGE.test(r));
  const first = rows.findIndex((r) => OPTION.test(r));
  if (first < 0) return null;
  const options: CardOption[] = [];
  for (const row of rows.slice(first)) {
    const m = OPTION.exec(row);
    if (m) options.push({ n: Number(m[1]), label: (m[2] ?? '').replace(KEY_HINT, ''), description: null, checked: null, freeText: false });
  }
  const above = rows.slice(0, first);
  const askAt = above.findIndex((r) => r.endsWith('?'));
  const question = askAt >= 0 ? (above[askAt] ?? '') : '';
  let title = kind === 'trust' ? 'Folder trust' : 'Tool';
  let body = above.filter((_, i) => i !== askAt);
  const heading = HEADING.exec(above[0] ?? '');
  if (kind === 'permission' && heading) {
    title = heading[1] ?? title;
    // The heading repeats the command that the nested box shows in full.
    body = body.slice(1);
    if (body.length === 0) body = [heading[2] ?? ''];
  }
  return { kind, title, body, question, options, tabs: [], activeTab: null, answerable: true };
}

/**
 * The keys that answer a Gemini CLI dialog, measured on 0.61 in tmux: the option's digit
 * chooses it at once, in the tool approval and in the folder-trust question alike.
 */
export function geminiKeys(_card: DialogCard, answer: CardAnswer): KeyPlan {
  if (answer.toggle !== undefined) return { ok: false, reason: 'this dialog takes one option, not ticks' };
  const n = answer.option ?? 0;
  if (!Number.isInteger(n) || n < 1 || n > 9) return { ok: false, reason: `option ${n} has no digit key` };
  return { ok: true, steps: [String(n)] };
}
