import type { SendReceipt } from '@collie/protocol';
import type { ChatEntry } from '../walky/chat';

/** A pane's Chat with the person's sends in it: each receipt on its own bubble. */
export type ChatRow = ChatEntry | { kind: 'send'; receipt: SendReceipt } | { kind: 'sent'; entry: ChatEntry; receipt: SendReceipt };

/** How long before a send its echo in the transcript may be dated (clocks of two processes). */
const SKEW_MS = 5_000;

const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Whether a transcript's user text is the text this receipt sent: whole, or its summary's start. */
function echoes(text: string, receipt: SendReceipt, full: string | null): boolean {
  const said = flat(text);
  if (full !== null) return said === flat(full);
  const summary = flat(receipt.summary);
  return summary.endsWith('…') ? said.startsWith(summary.slice(0, -1).trimEnd()) : said === summary;
}

/**
 * The Chat's rows: a text send whose words the transcript echoes (the person's own bubble, dated
 * no earlier than the send) carries its receipt on that bubble (`sent`); any other send (held,
 * queued, refused, keys, an answer) stands as its own bubble at its time (`send`). Each
 * transcript item carries at most one receipt. `full` gives a send's whole text when this page
 * made it. Pure; the entries keep their order.
 */
export function withSends(entries: readonly ChatEntry[], receipts: readonly SendReceipt[], full: (requestId: string) => string | null): ChatRow[] {
  const rows: ChatRow[] = [...entries];
  for (const receipt of [...receipts].sort((a, b) => a.createdAt - b.createdAt)) {
    const echo =
      receipt.kind === 'text'
        ? rows.findIndex((r) => r.kind === 'item' && r.item.kind === 'user' && r.item.at >= receipt.createdAt - SKEW_MS && echoes(r.item.text, receipt, full(receipt.requestId)))
        : -1;
    if (echo !== -1) {
      rows[echo] = { kind: 'sent', entry: rows[echo] as ChatEntry, receipt };
      continue;
    }
    const at = rows.findIndex((r) => rowAt(r) > receipt.createdAt);
    rows.splice(at === -1 ? rows.length : at, 0, { kind: 'send', receipt });
  }
  return rows;
}

function rowAt(row: ChatRow): number {
  if (row.kind === 'send') return row.receipt.createdAt;
  const entry = row.kind === 'sent' ? row.entry : row;
  return entry.kind === 'item' ? entry.item.at : entry.message.at;
}
