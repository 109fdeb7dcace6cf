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

/** Names given to panes from the phone (Rename), by the same key as their tokens. */
export type NameTable = Record<string, string>;

export class TokenStore {
  private readonly table: TokenTable;
  private readonly names: NameTable;
  private dirty = false;

  constructor(
    initial: TokenTable,
    private readonly random: () => number = Math.random,
    names: NameTable = {},
  ) {
    this.table = { ...initial };
    this.names = { ...names };
  }

  /** The name the person gave this pane, if any: it is the pane's label. */
  nameOf(key: string): string | undefined {
    return Object.hasOwn(this.names, key) ? this.names[key] : undefined;
  }

  /** Gives the pane a name, or (null) takes it back so the automatic label shows again. */
  setName(key: string, name: string | null): void {
    if (name === null) delete this.names[key];
    else this.names[key] = name;
    this.dirty = true;
  }

  /** The names to persist with the tokens. */
  allNames(): NameTable {
    return { ...this.names };
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
    // A name goes with its pane at once: the key (server, its start, pane id) never comes back.
    for (const key of Object.keys(this.names)) {
      if (key.startsWith(prefix) && !alive.has(key)) {
        delete this.names[key];
        this.dirty = true;
      }
    }
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
