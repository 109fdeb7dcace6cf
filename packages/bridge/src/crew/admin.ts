/**
 * What the lead's owner does to the crew, from the CLI (`collie crew invite|remove`) or the
 * phone's Crew page: one code path, so a token and a removal are the same either way.
 */
import { randomBytes } from 'node:crypto';
import { CREW_WINDOW_MS } from '@collie/protocol';
import { readIdentity } from './identity';
import { encodeInvite } from './invite-token';
import { hashSecret, removeMember, type LeadFile } from './lead-core';
import { readCrew, readInvites, withCrewLock, writeCrew, writeInvites } from './store';

export class CrewAdminError extends Error {
  constructor(
    readonly code: 'no_crew' | 'not_lead' | 'no_identity' | 'no_member',
    message: string,
  ) {
    super(message);
  }
}

async function leading(stateDir: string): Promise<LeadFile> {
  const c = await readCrew(stateDir);
  if (!c) throw new CrewAdminError('no_crew', 'this machine is in no crew (collie crew create, or collie crew join <token>)');
  if (c.role !== 'lead') throw new CrewAdminError('not_lead', `this machine is a member of ${c.crew}; run this on its lead, ${c.lead.name} (${c.lead.listen})`);
  return c;
}

export interface Invite {
  token: string;
  crew: string;
  lead: string;
  fingerprint: string;
  expires: number;
}

/** A new single-use invite valid 10 minutes; only its secret's hash is kept. */
export async function createInvite(stateDir: string, now: number): Promise<Invite> {
  const crew = await leading(stateDir);
  const id = await readIdentity(stateDir);
  if (!id) throw new CrewAdminError('no_identity', 'the crew key is missing from the state dir; collie crew leave --dissolve and create the crew again');
  const secret = randomBytes(32).toString('base64url');
  const expires = now + CREW_WINDOW_MS;
  await withCrewLock(stateDir, async () => {
    const inv = await readInvites(stateDir);
    await writeInvites(stateDir, { version: 1, invites: [...inv.invites.filter((i) => i.expires > now - 86_400_000), { hash: hashSecret(secret), expires, used: null }] });
  });
  return { token: encodeInvite({ v: 1, crew: crew.crew, lead: crew.listen, fp: id.fingerprint, secret, expires }), crew: crew.crew, lead: crew.listen, fingerprint: id.fingerprint, expires };
}

/** Remove `member`: its key is refused `removed` from now on. */
export async function removeFromCrew(stateDir: string, member: string, now: number): Promise<{ crew: string; removed: string }> {
  await leading(stateDir);
  return withCrewLock(stateDir, async () => {
    const crew = await leading(stateDir);
    const next = removeMember(crew, member, now);
    if (!next) throw new CrewAdminError('no_member', `crew ${crew.crew} has no member called ${member.slice(0, 40)}${crew.members.length ? ` (members: ${crew.members.map((m) => m.name).join(', ')})` : ''}`);
    await writeCrew(stateDir, next);
    return { crew: crew.crew, removed: member };
  });
}
