import { type Mask, type PaneChatImage, type PaneChatItem as DurableItem, type ToolStatus, WireItem, type WireItemInput, fitItem } from '@collie/protocol';
import type { Entry } from './entries';

type Result = { readonly output: string; readonly status: ToolStatus; readonly images?: readonly PaneChatImage[] };

/** An item with the pictures its block carries (references only). */
const withImages = (item: DurableItem, images: readonly PaneChatImage[] | undefined): DurableItem => (images && images.length > 0 ? { ...item, images: [...images] } : item);
type ToolCall = Extract<WireItem, { kind: 'tool' }>;

/** Where an item's line starts in its file: the number before the dot of its id. */
export function offsetOf(id: string): number {
  const n = Number(id.split('.')[0]);
  return Number.isFinite(n) ? n : 0;
}

/**
 * The chat of one transcript as far as it has been read: items in file order, fitted and
 * masked for the phone. Lines are added at the end as the file grows (`append`) and at the
 * front as history is read backwards (`prepend`). A tool result settles its call's item
 * whichever of the two was read first. Pure: no I/O, no clock.
 */
export class ChatLog {
  readonly #mask: Mask;
  #items: DurableItem[] = [];
  /** Calls still waiting for their result, by call id: the item as the agent wrote it. */
  readonly #open = new Map<string, ToolCall>();
  /** Results read before their call (history is read newest first). */
  readonly #early = new Map<string, Result>();
  /** The id of the item standing for each key (the id of the key's first line). */
  readonly #keyed = new Map<string, string>();
  session: string | null = null;

  constructor(mask: Mask) {
    this.#mask = mask;
  }

  get items(): readonly DurableItem[] {
    return this.#items;
  }

  /** Entries of lines after everything read so far; returns the items that are new or changed. */
  append(entries: readonly Entry[]): DurableItem[] {
    const changed = new Map<string, DurableItem>();
    for (const e of entries) {
      if (e.kind === 'session') this.session = e.id;
      else if (e.kind === 'item') {
        // A new version of a keyed item replaces the old where it stands, under the old id.
        const prior = e.key === undefined ? undefined : this.#keyed.get(e.key);
        const at = prior === undefined ? -1 : this.#items.findLastIndex((it) => it.id === prior);
        const item = withImages(this.#fit(at >= 0 && prior !== undefined ? { ...e.item, id: prior } : e.item, false), e.images);
        if (at >= 0) this.#items[at] = item;
        else this.#insert(item);
        if (e.key !== undefined && at < 0) this.#keyed.set(e.key, item.id);
        changed.set(item.id, item);
      } else {
        const settled = this.#settle(e.callId, e);
        if (settled) changed.set(settled.id, settled);
        else this.#early.set(e.callId, e);
      }
    }
    return [...changed.values()];
  }

  /** Entries of lines before everything read so far, in file order. */
  prepend(entries: readonly Entry[]): void {
    const older: DurableItem[] = [];
    // Results in this batch settle calls in this batch: walk it newest first, as for the file.
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]!;
      if (e.kind === 'result') this.#early.set(e.callId, e);
      else if (e.kind === 'item') older.push(this.#older(e, older));
      else this.session ??= e.id;
    }
    this.#items = [...older.reverse(), ...this.#items];
  }

  /**
   * An item of an earlier line than everything read (`older`: this batch's items so far,
   * newest first). A keyed item already read in a newer version stands here, at its first
   * line, in that newer version: the same chat as reading the file forwards.
   */
  #older(e: Extract<Entry, { kind: 'item' }>, older: DurableItem[]): DurableItem {
    const item = withImages(this.#fit(e.item, true), e.images);
    if (e.key === undefined) return item;
    const newer = this.#keyed.get(e.key);
    this.#keyed.set(e.key, item.id);
    if (newer === undefined) return item;
    const inBatch = older.findIndex((it) => it.id === newer);
    const inLog = inBatch >= 0 ? -1 : this.#items.findIndex((it) => it.id === newer);
    const version = inBatch >= 0 ? older.splice(inBatch, 1)[0] : inLog >= 0 ? this.#items.splice(inLog, 1)[0] : undefined;
    return version === undefined ? item : { ...version, id: item.id };
  }

  /**
   * A new item at its place: after every item of an earlier place. Lines of a file only ever
   * come later; a database row (OpenCode's) may first show once a later one already has.
   */
  #insert(item: DurableItem): void {
    const place = offsetOf(item.id);
    const last = this.#items.at(-1);
    if (last === undefined || offsetOf(last.id) <= place) {
      this.#items.push(item);
      return;
    }
    const at = this.#items.findIndex((it) => offsetOf(it.id) > place);
    this.#items.splice(at < 0 ? this.#items.length : at, 0, item);
  }

  /** Up to `limit` items before `before` (an offset; null: the newest), oldest first. */
  page(before: number | null, limit: number): DurableItem[] {
    const end = before === null ? this.#items.length : this.#items.findIndex((it) => offsetOf(it.id) >= before);
    const stop = end < 0 ? this.#items.length : end;
    return this.#items.slice(Math.max(0, stop - limit), stop);
  }

  /**
   * `older`: the item's line is before every line read so far, so a result already read is a
   * later line and may settle it. A call appended at the end is after every result read, and
   * a result never settles a call written after it: the same chat read forwards or backwards.
   */
  #fit(input: WireItemInput, older: boolean): DurableItem {
    const wire = WireItem.parse(input);
    if (wire.kind === 'tool' && wire.callId !== null && wire.status === 'running') {
      const early = older ? this.#early.get(wire.callId) : undefined;
      if (early) {
        this.#early.delete(wire.callId);
        return withImages(fitItem({ ...wire, output: early.output, status: early.status }, this.#mask), early.images);
      }
      this.#open.set(wire.callId, wire);
    }
    return fitItem(wire, this.#mask);
  }

  /** A result for a call already read: the call's item, settled, in place. */
  #settle(callId: string, r: Result): DurableItem | null {
    const call = this.#open.get(callId);
    if (!call) return null;
    this.#open.delete(callId);
    const item = withImages(fitItem({ ...call, output: r.output, status: r.status }, this.#mask), r.images);
    const at = this.#items.findLastIndex((it) => it.id === item.id);
    if (at >= 0) this.#items[at] = item;
    return item;
  }
}
