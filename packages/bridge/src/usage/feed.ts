import type { Harness, PaneUsage } from '@collie/protocol';
import { scanFile } from './scan';
import { lineTally, opencodeUsage, type UsageTally } from './tally';

/** What a session's usage reads from the follower of its transcript (structural: no import of the followers). */
type Followed = { readonly path: string; readonly loadedEnd?: number; assistantMessages?(): string[] };

/** One transcript's usage: fed by its follower's lines (or its database's reads). */
export interface UsageSession {
  /** The follower is open: read what the transcript held then. */
  follow(f: Followed): void;
  lines(texts: readonly string[]): void;
  read(): void;
  /** The file was replaced or truncated: add it up anew. */
  reset(): void;
}

/**
 * A pane's usage as its transcript records it: one session per followed transcript (a new
 * transcript is a new session), figures sent on when they change. Adds no work of its own:
 * the totals are read once when a transcript is opened, then only the lines its follower reads.
 */
export class UsageFeed {
  #gen = 0;
  #last = 'null';
  #stopped = false;

  constructor(private readonly emit: (usage: PaneUsage | null) => void) {}

  /** A new transcript is followed: its usage replaces the last one's. Null: the agent records none Collie reads. */
  start(harness: Harness): UsageSession | null {
    const gen = ++this.#gen;
    const live = () => gen === this.#gen && !this.#stopped;
    const send = (u: PaneUsage | null) => live() && this.#send(u);
    if (harness === 'opencode') {
      let followed: Followed | null = null;
      const read = () => {
        if (!followed?.assistantMessages) return;
        try {
          send(opencodeUsage(followed.assistantMessages()));
        } catch {
          // The database busy a moment: the next read tries again.
        }
      };
      return { follow: (f) => ((followed = f), read()), lines: () => undefined, read, reset: read };
    }
    const tallyOf = () => lineTally(harness);
    let tally: UsageTally | null = tallyOf();
    if (!tally) return null;
    /** Lines read while the file's start is scanned wait for the scan. */
    let waiting: string[] | null = [];
    let followed: Followed | null = null;
    const scan = () => {
      const f = followed;
      const t = (tally = tallyOf());
      if (!f || !t) return;
      waiting = [];
      scanFile(f.path, f.loadedEnd ?? 0, t)
        .catch(() => undefined)
        .finally(() => {
          if (t !== tally) return;
          for (const l of waiting ?? []) t.line(l);
          waiting = null;
          send(t.usage());
        });
    };
    return {
      follow: (f) => ((followed = f), scan()),
      lines: (texts) => {
        if (waiting) return void waiting.push(...texts);
        let changed = false;
        for (const l of texts) changed = (tally?.line(l) ?? false) || changed;
        if (changed) send(tally?.usage() ?? null);
      },
      read: () => undefined,
      reset: scan,
    };
  }

  /** No transcript is followed: no usage. */
  clear(): void {
    this.#gen++;
    this.#send(null);
  }

  stop(): void {
    this.#stopped = true;
  }

  #send(u: PaneUsage | null): void {
    const key = JSON.stringify(u);
    if (key === this.#last) return;
    this.#last = key;
    this.emit(u);
  }
}
