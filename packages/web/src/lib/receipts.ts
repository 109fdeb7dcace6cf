import type { SendReceipt } from '@collie/protocol';

/** How many receipts the phone keeps per pane: enough for "recent sends", bounded for a long day. */
export const RECEIPTS_PER_PANE = 8;

/** Each pane's latest receipts, oldest first, newest last. */
export type PaneReceipts = ReadonlyMap<string, readonly SendReceipt[]>;

/**
 * Puts `receipt` into its pane's list: in place of the one with its request id, else as a new
 * one in `createdAt` order, dropping the oldest beyond `RECEIPTS_PER_PANE`. Pure.
 * An update that is not newer than the one held (an event replayed after a snapshot
 * already had the later state) changes nothing, so a receipt never steps back.
 */
export function putReceipt(sends: PaneReceipts, receipt: SendReceipt): PaneReceipts {
  const list = sends.get(receipt.paneId) ?? [];
  const at = list.findIndex((held) => held.requestId === receipt.requestId);
  let next: SendReceipt[];
  if (at >= 0) {
    const held = list[at]!;
    if (!isNewer(receipt, held)) return sends;
    next = list.slice();
    next[at] = receipt;
  } else {
    next = [...list, receipt].sort((a, b) => a.createdAt - b.createdAt);
  }
  const out = new Map(sends);
  out.set(receipt.paneId, next.slice(-RECEIPTS_PER_PANE));
  return out;
}

/** Groups a snapshot's receipts by pane, each list bounded and newest last. */
export function receiptsFrom(receipts: readonly SendReceipt[]): PaneReceipts {
  let sends: PaneReceipts = new Map();
  for (const receipt of receipts) sends = putReceipt(sends, receipt);
  return sends;
}

/** Forgets a pane's receipts (the pane is gone). */
export function dropPane(sends: PaneReceipts, paneId: string): PaneReceipts {
  if (!sends.has(paneId)) return sends;
  const out = new Map(sends);
  out.delete(paneId);
  return out;
}

/** The receipt of one request on a pane, or null when the phone holds none. */
export function findReceipt(sends: PaneReceipts, paneId: string, requestId: string): SendReceipt | null {
  return sends.get(paneId)?.find((held) => held.requestId === requestId) ?? null;
}

/**
 * Whether `a` is a later word on the same request than `b`. A final receipt never gives way to
 * a pending one; otherwise the later `updatedAt` wins, and a tie goes to the newcomer.
 */
export function isNewer(a: SendReceipt, b: SendReceipt): boolean {
  if (a.final !== b.final) return a.final;
  return a.updatedAt >= b.updatedAt;
}

/** Of two readings of the same request (the call's answer and the live event), the later one. */
export function latest(a: SendReceipt | null, b: SendReceipt | null): SendReceipt | null {
  if (a === null) return b;
  if (b === null) return a;
  return isNewer(a, b) ? a : b;
}

/** Sends of a pane still waiting their turn (queued or held): they can still be cancelled or edited. */
export function waitingSends(sends: PaneReceipts, paneId: string): readonly SendReceipt[] {
  return (sends.get(paneId) ?? []).filter((r) => !r.final && (r.state === 'queued' || r.state === 'held'));
}
