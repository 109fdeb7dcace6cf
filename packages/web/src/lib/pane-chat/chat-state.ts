import type { PaneChatItem as DurableItem, PaneChatMessage, PaneChatPage, PaneChatSource } from '@collie/protocol';

/** What the phone holds of one pane's chat. */
export interface PaneChatState {
  readonly source: PaneChatSource | null;
  /** Why there is no chat, in one line. */
  readonly reason: string | null;
  /** Oldest first. */
  readonly items: readonly DurableItem[];
  /** The cursor for older items; null when the transcript's start is shown. */
  readonly before: string | null;
  /** Bumped on every reset: a History page asked for before it belongs to another file. */
  readonly generation: number;
}

export const EMPTY_CHAT: PaneChatState = { source: null, reason: null, items: [], before: null, generation: 0 };

/** Where an item's line starts in its transcript: items sort by it. */
export function placeOf(id: string): number {
  const n = Number(id.split('.')[0]);
  const part = Number(id.split('.')[1] ?? 0);
  return Number.isFinite(n) ? n + (Number.isFinite(part) ? part / 1e4 : 0) : 0;
}

/** A message from the bridge: a reset replaces the chat, anything else upserts its items by id. */
export function applyChat(state: PaneChatState, m: PaneChatMessage): PaneChatState {
  if (m.reset) return { source: m.source, reason: m.reason, items: m.items, before: m.before, generation: state.generation + 1 };
  const byId = new Map(m.items.map((it) => [it.id, it]));
  const items = state.items.map((it) => byId.get(it.id) ?? it);
  const known = new Set(state.items.map((it) => it.id));
  const added = m.items.filter((it) => !known.has(it.id));
  return { ...state, items: added.length === 0 ? items : [...items, ...added].sort((a, b) => placeOf(a.id) - placeOf(b.id)) };
}

/** Older items from `GET …/chat?before=`, put in front; a page of another file than shown is dropped. */
export function prependHistory(state: PaneChatState, page: PaneChatPage, generation: number): PaneChatState {
  if (generation !== state.generation || page.source?.path !== state.source?.path) return state;
  const known = new Set(state.items.map((it) => it.id));
  return { ...state, items: [...page.items.filter((it) => !known.has(it.id)), ...state.items], before: page.before };
}
