/**
 * What one durable agent may hold on the phone (docs/wire-v1.md, "Caps"): 100 open
 * conversations, 500 items a conversation, 2 MB of the snapshot. The mirror asks this ledger
 * before it holds a conversation and tells it every item it publishes; the ledger counts the
 * bytes (JSON) of each and, past the budget, names the oldest items to drop, down to three
 * quarters of it so the drops come seldom. Pure: no hub, no clock.
 */
import { keptWords, LIMITS, type KeptCounts } from '@collie/protocol';

interface Entry {
  bytes: number;
  seq: number;
}

export const jsonBytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

export class KeepLedger {
  /** Per conversation: its meta's bytes and its items' (in arrival order). */
  private readonly convs = new Map<string, { meta: number; items: Map<string, Entry> }>();
  private total = 0;
  private seq = 0;
  private readonly refused = new Set<string>();
  readonly counts: KeptCounts = { conversations: 0, itemsPerConversation: 0, itemsForBytes: 0 };

  constructor(
    private readonly budget = LIMITS.agentBytes,
    private readonly open = LIMITS.openConversations,
    private readonly perConversation = LIMITS.itemsKept,
  ) {}

  bytes(): number {
    return this.total;
  }

  words(): string | null {
    return keptWords(this.counts);
  }

  /** Whether a conversation not held yet may be: under 100 open and with room for its meta. */
  admit(id: string, metaBytes: number): boolean {
    if (this.convs.has(id)) return true;
    if (this.convs.size < this.open && this.total + metaBytes <= this.budget) return true;
    if (!this.refused.has(id)) {
      this.refused.add(id);
      this.counts.conversations++;
    }
    return false;
  }

  meta(id: string, bytes: number): void {
    const c = this.convs.get(id) ?? { meta: 0, items: new Map<string, Entry>() };
    this.convs.set(id, c);
    this.total += bytes - c.meta;
    c.meta = bytes;
  }

  /** An item published (new, or replacing one of the same id). */
  item(conversationId: string, itemId: string, bytes: number): void {
    const c = this.convs.get(conversationId);
    if (!c) return;
    const had = c.items.get(itemId);
    if (had) {
      this.total += bytes - had.bytes;
      had.bytes = bytes;
      return;
    }
    c.items.set(itemId, { bytes, seq: this.seq++ });
    this.total += bytes;
    // The hub's fold keeps the newest 500; the ledger follows it.
    if (c.items.size > this.perConversation) {
      const [oldest, e] = c.items.entries().next().value!;
      c.items.delete(oldest);
      this.total -= e.bytes;
      this.counts.itemsPerConversation++;
    }
  }

  remove(id: string): void {
    const c = this.convs.get(id);
    if (!c) return;
    this.total -= c.meta;
    for (const e of c.items.values()) this.total -= e.bytes;
    this.convs.delete(id);
  }

  /**
   * Past the budget: the oldest items across the agent's conversations to drop, by
   * conversation, so the total falls to three quarters of it; none while under. The item
   * that just arrived (`spare`) is never named.
   */
  over(spare?: { conv: string; id: string }): Map<string, Set<string>> {
    const drop = new Map<string, Set<string>>();
    if (this.total <= this.budget) return drop;
    const all: { conv: string; id: string; e: Entry }[] = [];
    for (const [conv, c] of this.convs) for (const [id, e] of c.items) if (!(spare && spare.conv === conv && spare.id === id)) all.push({ conv, id, e });
    all.sort((a, b) => a.e.seq - b.e.seq);
    const target = this.budget * 0.75;
    for (const x of all) {
      if (this.total <= target) break;
      this.convs.get(x.conv)!.items.delete(x.id);
      this.total -= x.e.bytes;
      this.counts.itemsForBytes++;
      const set = drop.get(x.conv) ?? new Set<string>();
      set.add(x.id);
      drop.set(x.conv, set);
    }
    return drop;
  }

  /** Every conversation refused so far is forgotten when the agent syncs afresh. */
  forgetRefused(keep: Set<string>): void {
    for (const id of this.refused) if (!keep.has(id)) this.refused.delete(id);
  }
}
