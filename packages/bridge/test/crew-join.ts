import { expect } from 'vitest';
import { crewCli, freePort } from '@collie/testkit';
import type { Bridge } from '../src/bridge';
import { decodeInvite, encodeInvite } from '../src/crew/invite-token';
import { readCrew, withCrewLock, writeCrew } from '../src/crew/store';

/** A member to join: its name, state dir, bridge, crew listener, and the lead's address it dials (a proxy's) or null for the lead's own. */
export type Joiner = readonly [name: string, state: string, bridge: Pick<Bridge, 'crew'>, listen: string, via: string | null];

/** Joins each member to the crew the lead at `leadState` leads, through the real CLI, one invite each. */
export async function joinMembers(leadState: string, members: readonly Joiner[]): Promise<void> {
  for (const [name, state, bridge, listen, via] of members) {
    const invite = decodeInvite(((await crewCli(leadState, ['invite', '--json'])).json as { token: string }).token);
    if (!invite.ok) throw new Error(invite.error);
    const joined = await crewCli(state, ['join', encodeInvite(via ? { ...invite.value, lead: via } : invite.value), '--name', name, '--listen', listen]);
    expect(joined.code, joined.stderr).toBe(0);
    await bridge.crew.reload();
  }
}

/** The lead reaches `member` at `address` (a fault proxy in front of its listener) from now on. */
export async function leadReaches(leadState: string, member: string, address: string): Promise<void> {
  await withCrewLock(leadState, async () => {
    const c = await readCrew(leadState);
    if (c?.role !== 'lead') throw new Error('not a lead');
    await writeCrew(leadState, { ...c, members: c.members.map((m) => (m.name === member ? { ...m, listen: address } : m)) });
  });
}

/**
 * Creates the crew `name` led by the bridge at `leadState` (its listener on a free port) and joins
 * each member (name, state dir, bridge) on a free port, through the real CLI; gives the crew's id.
 */
export async function formCrew(leadState: string, lead: Pick<Bridge, 'crew'>, name: string, members: readonly (readonly [name: string, state: string, bridge: Pick<Bridge, 'crew'>])[]): Promise<string> {
  const created = await crewCli(leadState, ['create', '--name', name, '--listen', `127.0.0.1:${await freePort()}`, '--json']);
  expect(created.code, created.stderr).toBe(0);
  await lead.crew.reload();
  const joiners: Joiner[] = [];
  for (const [member, state, bridge] of members) joiners.push([member, state, bridge, `127.0.0.1:${await freePort()}`, null]);
  await joinMembers(leadState, joiners);
  return (created.json as { crew: string }).crew;
}
