import type { PaneChatMessage, PaneChatPage } from '@collie/protocol';
import { type PaneChatState, applyChat, prependHistory } from './chat-state';

interface Watch {
  readonly listeners: Set<() => void>;
  state: PaneChatState | null;
}

/**
 * Which panes' chats the page shows, and what it holds of each. As with screens, the first
 * watcher of a pane and the last one leaving are reported, so the socket subscribes once.
 */
export class ChatWatches {
  readonly #watches = new Map<string, Watch>();

  add(id: string, listener: () => void): boolean {
    const existing = this.#watches.get(id);
    if (existing) {
      existing.listeners.add(listener);
      return false;
    }
    this.#watches.set(id, { listeners: new Set([listener]), state: null });
    return true;
  }

  remove(id: string, listener: () => void): boolean {
    const watch = this.#watches.get(id);
    if (!watch || !watch.listeners.delete(listener) || watch.listeners.size > 0) return false;
    this.#watches.delete(id);
    return true;
  }

  ids(): IterableIterator<string> {
    return this.#watches.keys();
  }

  /** Null until the bridge's first page arrives. */
  state(id: string): PaneChatState | null {
    return this.#watches.get(id)?.state ?? null;
  }

  deliver(m: PaneChatMessage): void {
    const watch = this.#watches.get(m.id);
    if (!watch || (watch.state === null && !m.reset)) return;
    watch.state = applyChat(watch.state ?? { source: null, reason: null, items: [], before: null, generation: 0 }, m);
    for (const listener of watch.listeners) listener();
  }

  /** A History page, fetched while the chat showed `generation`. */
  history(id: string, page: PaneChatPage, generation: number): void {
    const watch = this.#watches.get(id);
    if (!watch?.state) return;
    watch.state = prependHistory(watch.state, page, generation);
    for (const listener of watch.listeners) listener();
  }
}
