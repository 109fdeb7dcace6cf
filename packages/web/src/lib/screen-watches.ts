import type { PaneScreen } from '@collie/protocol';

interface Watch {
  readonly listeners: Set<() => void>;
  frame: PaneScreen | null;
}

/**
 * Which panes' screens someone on the page is looking at, and their last frame. The first
 * watcher of a pane and the last one leaving are reported, so the socket subscribes once
 * per pane however many components show it.
 */
export class ScreenWatches {
  readonly #watches = new Map<string, Watch>();

  /** Adds a watcher; returns true when it is the pane's first. */
  add(id: string, listener: () => void): boolean {
    const existing = this.#watches.get(id);
    if (existing) {
      existing.listeners.add(listener);
      return false;
    }
    this.#watches.set(id, { listeners: new Set([listener]), frame: null });
    return true;
  }

  /** Removes a watcher; returns true when the pane has none left (its frame is forgotten). */
  remove(id: string, listener: () => void): boolean {
    const watch = this.#watches.get(id);
    if (!watch || !watch.listeners.delete(listener) || watch.listeners.size > 0) return false;
    this.#watches.delete(id);
    return true;
  }

  ids(): IterableIterator<string> {
    return this.#watches.keys();
  }

  frame(id: string): PaneScreen | null {
    return this.#watches.get(id)?.frame ?? null;
  }

  /** Keeps a frame for a watched pane and tells its watchers; frames nobody watches are ignored. */
  deliver(frame: PaneScreen): void {
    const watch = this.#watches.get(frame.id);
    if (!watch) return;
    watch.frame = frame;
    for (const listener of watch.listeners) listener();
  }
}
