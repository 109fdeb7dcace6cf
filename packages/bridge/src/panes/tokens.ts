/**
 * Pane tokens: four characters after the `#` of an address. A token follows its pane for
 * the pane's whole life; a pane gone for 30 s loses it, so the next pane that takes the
 * same tmux id gets a new one and a send to the old address is refused instead of
 * reaching a stranger. The store is pure: loading, saving, the clock and randomness are
 * passed in.
 */
export const TOKEN_GRACE_MS = 30_000;
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789'; // no 0/o, 1/l: read aloud from a phone

export interface TokenEntry {
  token: string;
  /** Epoch ms the pane was last seen gone; null while it lives. */
  goneAt: number | null;
}

export type TokenTable = Record<string, TokenEntry>;

export class TokenStore {
  private readonly table: TokenTable;
  private dirty = false;

  constructor(
    initial: TokenTable,
    private readonly random: () => number = Math.random,
  ) {
    this.table = { ...initial };
  }

  /** The token of a live pane, minted on first sight. `key` names the pane for good. */
  tokenFor(key: string): string {
    const entry = this.table[key];
    if (entry) {
      if (entry.goneAt !== null) {
        entry.goneAt = null;
        this.dirty = true;
      }
      return entry.token;
    }
    const taken = new Set(Object.values(this.table).map((e) => e.token));
    let token: string;
    do token = Array.from({ length: 4 }, () => ALPHABET[Math.floor(this.random() * ALPHABET.length)]).join('');
    while (taken.has(token));
    this.table[key] = { token, goneAt: null };
    this.dirty = true;
    return token;
  }

  /** Mark every key not in `alive` as gone (from `now`), and forget those gone too long. */
  sweep(alive: ReadonlySet<string>, now: number, prefix = ''): void {
    for (const [key, entry] of Object.entries(this.table)) {
      if (!key.startsWith(prefix) || alive.has(key)) continue;
      if (entry.goneAt === null) {
        entry.goneAt = now;
        this.dirty = true;
      } else if (now - entry.goneAt >= TOKEN_GRACE_MS) {
        delete this.table[key];
        this.dirty = true;
      }
    }
  }

  /** The table to persist, once per change. */
  takeChanges(): TokenTable | null {
    if (!this.dirty) return null;
    this.dirty = false;
    return structuredClone(this.table);
  }
}
