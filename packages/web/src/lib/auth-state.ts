import { ErrorBody, PairResult, type PairRequest } from '@collie/protocol';

/**
 * Whether this browser is a paired device. `checking` until the bridge has answered once;
 * `unpaired` shows the pairing page (with `reason` when the device was removed or a link failed).
 */
export interface AuthState {
  readonly status: 'checking' | 'paired' | 'unpaired' | 'unreachable';
  readonly reason: string | null;
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** The outcome of a pairing attempt, in words for the page. */
export type PairOutcome = { ok: true } | { ok: false; code: string; message: string };

/** The token of a pairing link's hash (`#/pair/<token>`), or undefined. */
const linkToken = (hash: string): string | undefined => /^#\/pair\/([A-Za-z0-9_-]{1,100})\/?$/.exec(hash)?.[1];

/** Words for the pairing errors; the bridge's message carries the details (tries left, minutes). */
export function pairingWords(message: string): string {
  const detail = message.replace(/^bridge: /, '');
  return detail.charAt(0).toUpperCase() + detail.slice(1) + (detail.endsWith('.') ? '' : '.');
}

/** The device cookie is HttpOnly: the page learns it is paired only by asking the bridge. */
export class AuthStore {
  #state: AuthState = { status: 'checking', reason: null };
  readonly #listeners = new Set<() => void>();
  readonly #fetch: Fetch;

  constructor(fetchImpl: Fetch) {
    this.#fetch = fetchImpl;
  }

  readonly getState = (): AuthState => this.#state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /**
   * At page load: a pairing link's token (`#/pair/<token>`) is taken out of the address bar by
   * `strip` before anything else, then spent only if this browser is not paired already.
   */
  async start(hash: string, strip: () => void): Promise<void> {
    const token = linkToken(hash);
    if (token) strip();
    await this.check();
    if (token) await this.#spend(token);
  }

  /**
   * A pairing link opened in a tab that is already open: only the hash changes, the page does
   * not load again. Taken out of the address bar, and spent as at load when not paired.
   */
  async follow(hash: string, strip: () => void): Promise<void> {
    const token = linkToken(hash);
    if (!token) return;
    strip();
    if (this.#state.status === 'paired') return;
    if (this.#state.status !== 'unpaired') await this.check();
    await this.#spend(token);
  }

  async #spend(token: string): Promise<void> {
    if (this.#state.status !== 'unpaired') return;
    const out = await this.pair({ token });
    if (!out.ok) this.#set({ status: 'unpaired', reason: out.message });
  }

  /** Asks `GET /api/health`: 200 paired, 401 unpaired; no answer leaves the page as it was. */
  async check(): Promise<void> {
    let response: Response;
    try {
      response = await this.#fetch('/api/health', { cache: 'no-store' });
    } catch {
      if (this.#state.status === 'checking') this.#set({ status: 'unreachable', reason: null });
      return;
    }
    if (response.ok) this.#set({ status: 'paired', reason: null });
    else if (response.status === 401) this.lost(await reasonOf(response));
  }

  /** The bridge said 401, or closed the events socket because this device was removed. */
  lost(reason: string | null): void {
    if (this.#state.status !== 'unpaired' || reason !== null) this.#set({ status: 'unpaired', reason });
  }

  /** `POST /api/pair`: the bridge sets the device cookie on success. */
  async pair(request: PairRequest): Promise<PairOutcome> {
    let response: Response;
    try {
      response = await this.#fetch('/api/pair', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
    } catch {
      return { ok: false, code: 'unreachable', message: "Can't reach the bridge. Check that Collie is running, then try again." };
    }
    const body: unknown = await response.json().catch(() => null);
    if (response.ok && PairResult.safeParse(body).success) {
      this.#set({ status: 'paired', reason: null });
      return { ok: true };
    }
    const err = ErrorBody.safeParse(body);
    const code = err.success ? err.data.error.code : 'unknown';
    return { ok: false, code, message: err.success ? pairingWords(err.data.error.message) : `The bridge answered ${response.status}.` };
  }

  #set(state: AuthState): void {
    this.#state = state;
    for (const l of this.#listeners) l();
  }
}

async function reasonOf(response: Response): Promise<string | null> {
  const err = ErrorBody.safeParse(await response.json().catch(() => null));
  return err.success && err.data.error.code === 'device_revoked' ? 'This device was removed from Collie. Pair it again to come back.' : null;
}

/** The page's one auth store. */
export const auth = new AuthStore((input, init) => fetch(input, init));
