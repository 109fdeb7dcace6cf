/** Invite tokens: `cj1_` + base64url of the InvitePayload JSON. Shown once, kept only as a hash. */
import { InvitePayload } from '@collie/protocol';

export const INVITE_PREFIX = 'cj1_';

export function encodeInvite(p: InvitePayload): string {
  return INVITE_PREFIX + Buffer.from(JSON.stringify(p), 'utf8').toString('base64url');
}

/** Decode a token; a sentence saying what is wrong when it is not one. Pure. */
export function decodeInvite(token: string): { ok: true; value: InvitePayload } | { ok: false; error: string } {
  const t = token.trim();
  if (!t.startsWith(INVITE_PREFIX) || t.length > 1000 || !/^[A-Za-z0-9_-]+$/.test(t.slice(INVITE_PREFIX.length))) {
    return { ok: false, error: 'not a crew invite: a token starts with cj1_ (run collie crew invite on the lead)' };
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(t.slice(INVITE_PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    return { ok: false, error: 'not a crew invite: the token is cut or damaged; copy it again' };
  }
  const parsed = InvitePayload.safeParse(json);
  if (!parsed.success) return { ok: false, error: 'not a crew invite: the token is cut or damaged; copy it again' };
  return { ok: true, value: parsed.data };
}
