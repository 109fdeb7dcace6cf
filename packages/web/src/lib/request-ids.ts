import type { ActionResult } from './action-result';

/** How many unsure actions are remembered for a retry; older ones get a fresh id if tapped again. */
const REMEMBERED = 32;

/**
 * Request ids, one per action. The bridge types a request id once only, so an action whose
 * call ended `unsure` (the network dropped) keeps its id: tapping the same action again
 * retries it, and the bridge answers with the first receipt instead of typing twice. Any
 * answer the bridge gave ends the action, and the same tap later is a new one.
 *
 * @example
 * const ids = new RequestIds(() => crypto.randomUUID());
 * const id = ids.take(key);         // a new id
 * ids.settle(key, { kind: 'unsure', detail: 'offline' });
 * ids.take(key) === id;             // the retry reuses it
 */
export class RequestIds {
  readonly #newId: () => string;
  readonly #open = new Map<string, string>();

  constructor(newId: () => string) {
    this.#newId = newId;
  }

  /** The id for this action: its earlier one while that is open or unsure, else a new one. */
  take(action: string): string {
    const held = this.#open.get(action);
    if (held !== undefined) return held;
    const id = this.#newId();
    this.#open.set(action, id);
    while (this.#open.size > REMEMBERED) this.#open.delete(this.#open.keys().next().value!);
    return id;
  }

  /** Records how the action's call ended. */
  settle(action: string, result: ActionResult): void {
    if (result.kind !== 'unsure') this.#open.delete(action);
  }
}

/** A fresh request id. `randomUUID` needs a secure context; the bytes fallback works anywhere. */
export function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
