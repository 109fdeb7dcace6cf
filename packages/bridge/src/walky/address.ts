/** A walky address, parsed: one pane, or every pane of a member (`<member>/all`, `all`). */
export type Address =
  | { kind: 'pane'; member: string; server: string; tmuxId: string; token: string | null }
  | { kind: 'all'; member: string | null };

const PANE = /^([A-Za-z0-9][A-Za-z0-9._-]{0,62})\/(?:([A-Za-z0-9_.-]{1,100}):)?(%\d{1,9})(?:#([a-z0-9]{4}))?$/;
const ALL = /^(?:([A-Za-z0-9][A-Za-z0-9._-]{0,62})\/)?all$/;

/**
 * `local/%7#ab12`, `local/work:%7` (a pane of the tmux server `work`), `local/all`, `all`.
 * Panes of the default tmux server carry no server part, as `who` prints them.
 *
 * @example
 * parseAddress('local/%7#ab12'); // { kind: 'pane', member: 'local', server: 'default', tmuxId: '%7', token: 'ab12' }
 */
export function parseAddress(text: string): Address | null {
  const s = text.trim();
  const all = ALL.exec(s);
  if (all) return { kind: 'all', member: all[1] ?? null };
  const m = PANE.exec(s);
  if (!m) return null;
  return { kind: 'pane', member: m[1]!, server: m[2] ?? 'default', tmuxId: m[3]!, token: m[4] ?? null };
}

/** The pane without its token, as receipts name it: `local/%7`. */
export function bareAddress(address: string): string {
  const at = address.lastIndexOf('#');
  return at < 0 ? address : address.slice(0, at);
}
