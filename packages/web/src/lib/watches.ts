interface Watch<T> {
  readonly listeners: Set<() => void>;
  value: T | null;
}

/**
 * Which panes someone on the page is looking at (their screen, their chat), and the last value
 * held for each. The first watcher of a pane and the last one leaving are reported, so the
 * socket subscribes once per pane however many components show it.
 */
export class Watches<T> {
  readonly #watches = new Map<string, Watch<T>>();

  /** Adds a watcher; returns true when it is the pane's first. */
  add(id: string, listener: () => void): boolean {
    const existing = this.#watches.get(id);
    if (existing) {
      existing.listeners.add(listener);
      return false;
    }
    this.#watches.set(id, { listeners: new Set([listener]), value: null });
    return true;
  }

  /** Removes a watcher; returns true when the pane has none left (its value is forgotten). */
  remove(id: string, listener: () => void): boolean {
    const watch = this.#watches.get(id);
    if (!watch || !watch.listeners.delete(listener) || watch.listeners.size > 0) return false;
    this.#watches.delete(id);
    return true;
  }

  ids(): IterableIterator<string> {
    return this.#watches.keys();
  }

  /** Null until a value arrives for a watched pane. */
  value(id: string): T | null {
    return this.#watches.get(id)?.value ?? null;
  }

  /**
   * Sets a watched pane's value from what it holds now and tells its watchers; a pane nobody
   * watches is ignored, and so is `next` returning undefined (nothing to change).
   */
  update(id: string, next: (now: T | null) => T | undefined): void {
    const watch = this.#watches.get(id);
    if (!watch) return;
    const value = next(watch.value);
    if (value === undefined) return;
    watch.value = value;
    for (const listener of watch.listeners) listener();
  }
}
