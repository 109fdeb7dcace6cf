import { watch, type FSWatcher } from 'node:fs';

/** Changes inside `.git/` that matter: the index (staging), HEAD and refs (a commit, a checkout). */
const GIT_RELEVANT = /^\.git\/(index|HEAD|refs\/)/;

/** Whether a path reported by the watcher (relative to the repository root) changes the diff. Pure. */
export function relevant(path: string | null): boolean {
  if (path === null) return true;
  const p = path.split('\\').join('/');
  if (p === '.git' || p.startsWith('.git/')) return GIT_RELEVANT.test(p) && !p.endsWith('.lock');
  return true;
}

interface Shared {
  watcher: FSWatcher;
  listeners: Set<() => void>;
}

/**
 * One recursive `fs.watch` per repository, shared by every phone waiting on it and closed when
 * the last one leaves (inotify watches cost one per folder, so never one per request).
 */
export class RepoWatchers {
  private readonly byRoot = new Map<string, Shared>();

  /** Calls `onChange` once, at the first relevant change under `root`; returns the way to stop waiting. */
  once(root: string, onChange: () => void): () => void {
    let shared = this.byRoot.get(root);
    if (!shared) {
      const listeners = new Set<() => void>();
      const watcher = watch(root, { recursive: true, persistent: false }, (_event, file) => {
        if (!relevant(typeof file === 'string' ? file : null)) return;
        for (const l of [...listeners]) l();
      });
      // A folder removed under the watcher, or out of inotify watches: every waiter is told (it re-reads and sees).
      watcher.on('error', () => {
        for (const l of [...listeners]) l();
        this.close(root);
      });
      shared = { watcher, listeners };
      this.byRoot.set(root, shared);
    }
    const s = shared;
    const listener = () => {
      stop();
      onChange();
    };
    const stop = () => {
      s.listeners.delete(listener);
      if (s.listeners.size === 0) this.close(root);
    };
    s.listeners.add(listener);
    return stop;
  }

  /** How many repositories are watched now (for tests). */
  get size(): number {
    return this.byRoot.size;
  }

  closeAll(): void {
    for (const root of [...this.byRoot.keys()]) this.close(root);
  }

  private close(root: string): void {
    const s = this.byRoot.get(root);
    if (!s) return;
    s.watcher.close();
    this.byRoot.delete(root);
  }
}
