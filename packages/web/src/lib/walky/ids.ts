import { MESSAGE_ID_IN_TEXT } from '@collie/protocol';

/** A piece of text: plain, or a message id. */
export type Piece = { kind: 'text'; text: string } | { kind: 'id'; id: string };

/** Text cut at every message id (`wt_` and 12 letters or digits), pure. */
export function splitIds(text: string): Piece[] {
  const out: Piece[] = [];
  let last = 0;
  for (const m of text.matchAll(new RegExp(MESSAGE_ID_IN_TEXT.source, 'g'))) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    out.push({ kind: 'id', id: m[0] });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

/** The distinct ids in some text, in order of first appearance. */
export function idsIn(text: string): string[] {
  return [...new Set(splitIds(text).flatMap((p) => (p.kind === 'id' ? [p.id] : [])))];
}

/** The ids that head a `[walky-talky <id>]` header in the text: a message, or one merely printed. */
export function headerIds(text: string): string[] {
  return [...new Set([...text.matchAll(/\[walky-talky (wt_[a-z0-9]{12})\]/g)].map((m) => m[1]!))];
}

/** A screen's rows as plain text: SGR escapes out. */
export function plainRows(lines: readonly string[]): string {
  return lines.map((l) => l.replace(/\u001b\[[0-9;:?]*[A-Za-z]/g, '')).join('\n');
}
