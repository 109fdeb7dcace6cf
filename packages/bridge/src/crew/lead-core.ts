/**
 * The lead's decisions on its crew file, without I/O: who a key is, whether an invite lets a
 * machine in, what a removal leaves. The edges (listener, CLI) read and write the files.
 */
import { createHash, X509Certificate } from 'node:crypto';
import type { CrewErrorCode, CrewFile, CrewPeer, InvitesFile, JoinRequest } from '@collie/protocol';
import { keyIdOf, publicKeyFromText } from './identity';
import type { KeyStanding } from './sign';

export type LeadFile = Extract<CrewFile, { role: 'lead' }>;
export type MemberFile = Extract<CrewFile, { role: 'member' }>;

export const keyIdOfText = (key: string) => keyIdOf(Buffer.from(key, 'base64url'));
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** What the lead knows of a key: a member's, a removed one's, or none. */
export function leadStanding(crew: LeadFile, keyId: string): KeyStanding {
  const m = crew.members.find((x) => keyIdOfText(x.key) === keyId);
  if (m) return { status: 'member', key: publicKeyFromText(m.key), name: m.name };
  const r = crew.removed.find((x) => x.keyId === keyId);
  return r ? { status: 'removed', name: r.name } : null;
}

/** A member trusts one key: its lead's. */
export function memberStanding(crew: MemberFile, keyId: string): KeyStanding {
  return keyIdOfText(crew.lead.key) === keyId ? { status: 'member', key: publicKeyFromText(crew.lead.key), name: crew.lead.name } : null;
}

/** A peer's certificate is of its key, and its fingerprint is what it says. */
export function peerConsistent(p: CrewPeer): boolean {
  try {
    const der = Buffer.from(p.cert, 'base64url');
    const x = new X509Certificate(der);
    return createHash('sha256').update(der).digest('hex') === p.fingerprint && x.publicKey.export({ format: 'der', type: 'spki' }).equals(Buffer.from(p.key, 'base64url'));
  } catch {
    return false;
  }
}

export type JoinDecision = { ok: true; crew: LeadFile; invites: InvitesFile; name: string } | { ok: false; code: CrewErrorCode; message: string };

/**
 * Let a machine in, or say why not. The invite is spent only by a join that succeeds, so a
 * machine refused for a taken name can try again with another.
 */
export function decideJoin(crew: LeadFile, invites: InvitesFile, req: JoinRequest, now: number): JoinDecision {
  if (req.crew !== crew.crew) return { ok: false, code: 'invite_unknown', message: `crew: this lead leads ${crew.crew}, not ${req.crew}` };
  const hash = hashSecret(req.secret);
  const invite = invites.invites.find((i) => i.hash === hash);
  if (!invite) return { ok: false, code: 'invite_unknown', message: 'crew: the lead knows no such invite (run collie crew invite on the lead)' };
  if (invite.used !== null) return { ok: false, code: 'invite_used', message: 'crew: this invite was already used; each invite works once (run collie crew invite again)' };
  if (invite.expires <= now) return { ok: false, code: 'invite_expired', message: 'crew: this invite expired (10 minutes); run collie crew invite again' };
  if (!peerConsistent(req.member)) return { ok: false, code: 'bad_request', message: 'crew: the certificate sent is not of the key sent' };
  const keyId = keyIdOfText(req.member.key);
  if (req.member.name === crew.name) return { ok: false, code: 'name_taken', message: `crew: the lead is called ${crew.name}; join with --name <another>` };
  const taken = crew.members.find((m) => m.name === req.member.name && keyIdOfText(m.key) !== keyId);
  if (taken) return { ok: false, code: 'name_taken', message: `crew: a member is already called ${req.member.name}; join with --name <another>` };
  const members = crew.members.filter((m) => keyIdOfText(m.key) !== keyId);
  members.push({ ...req.member, machine: req.machine, joined: now });
  return {
    ok: true,
    name: req.member.name,
    crew: { ...crew, members, removed: crew.removed.filter((r) => r.keyId !== keyId) },
    invites: { version: 1, invites: invites.invites.filter((i) => i.expires > now - 86_400_000).map((i) => (i.hash === hash ? { ...i, used: now } : i)) },
  };
}

/** The crew without `name`, its key now refused `removed`; null when no member is called so. */
export function removeMember(crew: LeadFile, name: string, now: number): LeadFile | null {
  const m = crew.members.find((x) => x.name === name);
  if (!m) return null;
  return { ...crew, members: crew.members.filter((x) => x !== m), removed: [...crew.removed.filter((r) => r.name !== name), { name, keyId: keyIdOfText(m.key), at: now }] };
}
