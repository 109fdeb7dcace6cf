import type { DurableItem, Pane, WalkyMessage } from '@collie/protocol';
import { headerIds } from './ids';
import { paneMessages, received } from './messages';

/** One entry of a pane's Chat timeline: a transcript item, or a walky message as its card. */
export type ChatEntry = { kind: 'item'; item: DurableItem } | { kind: 'message'; message: WalkyMessage };

/**
 * A pane's Chat with its walky messages in it, at their time. A message the log says reached
 * this pane (its token, not refused) shows as its card: in the place of the transcript's user
 * item that carries its header (the typed header is the message, the card shows it from the
 * log), or, when no item carries it (still held, in the inbox, not read yet), at the message's
 * own time among the items. Pure; items stay in their order.
 */
export function chatTimeline(items: readonly DurableItem[], messages: readonly WalkyMessage[], pane: Pick<Pane, 'id' | 'token'>): ChatEntry[] {
  const mine = new Map(paneMessages(messages, pane).filter((m) => received(m, pane.id)).map((m) => [m.id, m]));
  const placed = new Set<string>();
  const out: ChatEntry[] = [];
  for (const item of items) {
    const carried = item.kind === 'user' ? headerIds(item.text).flatMap((id) => (mine.has(id) && !placed.has(id) ? [mine.get(id)!] : [])) : [];
    if (carried.length === 0) {
      out.push({ kind: 'item', item });
      continue;
    }
    for (const m of carried) {
      placed.add(m.id);
      out.push({ kind: 'message', message: m });
    }
  }
  const rest = [...mine.values()].filter((m) => !placed.has(m.id)).sort((a, b) => a.at - b.at);
  for (const m of rest) {
    const at = out.findIndex((e) => (e.kind === 'item' ? e.item.at : e.message.at) > m.at);
    out.splice(at === -1 ? out.length : at, 0, { kind: 'message', message: m });
  }
  return out;
}
