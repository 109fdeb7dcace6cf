/**
 * Refused requests are counted, not each written, once they come in floods: any web page can
 * make a browser fire thousands at the bridge. Per kind of refusal (its code), the first
 * `burst` in a window are written in full; the rest are counted, and when the window closes one
 * line says how many: `{"action":"refused.flood","code":…,"count":187,"summary":"refused 187
 * more like this in 10 s"}`. While a flood goes on, window after window, only that line is
 * written.
 */
import type { AuditEntry } from './audit-log';

export interface AuditFloodOptions {
  /** Writes one line to the audit log. */
  write: (entry: AuditEntry) => void;
  /** The window, ms (default 10 s). */
  windowMs?: number;
  /** Lines written in full per kind and window (default 5). */
  burst?: number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => () => void;
}

interface Window {
  start: number;
  written: number;
  counted: number;
  /** The burst of this window: none when the window before it overflowed too. */
  burst: number;
  sample: { method?: unknown; path?: unknown } | null;
  cancel: () => void;
}

const unrefTimer = (fn: () => void, ms: number) => {
  const t = setTimeout(fn, ms);
  t.unref();
  return () => clearTimeout(t);
};

/** A refused request's kind, or null for a line to write as it is (anything done on someone's behalf). */
export function refusalKind(entry: AuditEntry): string | null {
  if (entry['action'] === 'pairing.failed') return `pairing.failed:${String(entry['reason'])}`;
  // A request nobody was let in for (no `by`), refused at a gate or by the device check.
  if (entry['action'] === undefined && typeof entry['status'] === 'number' && entry['status'] >= 400 && entry['by'] === undefined) return String(entry['code'] ?? entry['status']);
  return null;
}

export class AuditFlood {
  readonly #o: Required<AuditFloodOptions>;
  readonly #windows = new Map<string, Window>();
  /** Kinds whose last window overflowed, and when it closed: a flood that goes on writes only its count. */
  readonly #flooding = new Map<string, number>();

  constructor(o: AuditFloodOptions) {
    this.#o = { windowMs: 10_000, burst: 5, now: Date.now, setTimer: unrefTimer, ...o };
  }

  /** One audit entry: refusals go through the count, everything else is written at once. */
  offer(entry: AuditEntry): void {
    const kind = refusalKind(entry);
    if (kind === null) return this.#o.write(entry);
    let w = this.#windows.get(kind);
    if (!w) {
      const now = this.#o.now();
      const lastFlood = this.#flooding.get(kind);
      const burst = lastFlood !== undefined && now - lastFlood <= this.#o.windowMs ? 0 : this.#o.burst;
      w = { start: now, written: 0, counted: 0, burst, sample: null, cancel: () => undefined };
      this.#windows.set(kind, w);
      w.cancel = this.#o.setTimer(() => this.#close(kind), this.#o.windowMs);
    }
    if (w.written < w.burst) {
      w.written++;
      return this.#o.write(entry);
    }
    w.counted++;
    w.sample ??= { method: entry['method'], path: entry['path'] };
  }

  /** Writes the counts of every open window now (the bridge stops). */
  flush(): void {
    for (const kind of [...this.#windows.keys()]) this.#close(kind);
  }

  #close(kind: string): void {
    const w = this.#windows.get(kind);
    if (!w) return;
    this.#windows.delete(kind);
    w.cancel();
    if (w.counted === 0) {
      this.#flooding.delete(kind);
      return;
    }
    const now = this.#o.now();
    this.#flooding.set(kind, now);
    const seconds = Math.max(1, Math.round((now - w.start) / 1000));
    const [code, reason] = kind.startsWith('pairing.failed:') ? ['pairing_failed', kind.slice('pairing.failed:'.length)] : [kind, undefined];
    this.#o.write({
      action: 'refused.flood',
      code,
      ...(reason !== undefined ? { reason } : {}),
      count: w.counted,
      seconds,
      summary: `refused ${w.counted} more like this in ${seconds} s`,
      ...(w.sample?.method !== undefined ? { method: w.sample.method, path: w.sample.path } : {}),
    });
  }
}
