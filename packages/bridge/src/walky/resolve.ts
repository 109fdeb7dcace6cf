import { REFUSAL, type Pane } from '@collie/protocol';
import { parseAddress } from './address';
import type { CrewPort, CrewSelf } from './crew-port';

/** Where an address leads: a pane here, a member's pane on this lead, the lead (from a member), or nowhere. */
export type Found = { pane: Pane; member?: string; refused?: undefined; lead?: undefined } | { lead: true; refused?: undefined; pane?: undefined; member?: undefined } | { refused: string; pane?: undefined; lead?: undefined; member?: undefined };

/**
 * The pane an address names now, or why it names none. `local` and this machine's own prefix
 * name its panes; on a member any other machine is the lead's to find; on a lead a member's
 * name names that member's pane as the lead knows it (`@<member>/…`).
 */
export function resolveAddress(to: string, self: CrewSelf | null, crew: CrewPort | null, panes: ReadonlyMap<string, Pane>): Found {
  const address = parseAddress(to);
  if (!address) return { refused: REFUSAL.badAddress };
  if (address.kind === 'all') return { refused: REFUSAL.broadcast };
  let key = `${address.server}:${address.tmuxId}`;
  let member: string | undefined;
  if (address.member !== 'local' && address.member !== self?.prefix) {
    if (!self) return { refused: REFUSAL.otherMember };
    if (self.role === 'member') return { lead: true };
    if (!crew?.member(address.member)) return { refused: REFUSAL.noPane };
    member = address.member;
    key = `@${member}/${key}`;
  }
  const pane = panes.get(key);
  if (!pane || (member === undefined && pane.member)) return { refused: address.token ? REFUSAL.replaced : REFUSAL.noPane };
  // A token that no longer matches: the pane that holds the id now is a stranger, not named.
  if (address.token && pane.token !== address.token) return { refused: REFUSAL.replaced };
  return member === undefined ? { pane } : { pane, member };
}
