/**
 * Signatures of walky messages across a crew (docs/walky.md, "Across a crew"). The origin
 * machine signs the message; the lead checks that against the key it pinned for the origin,
 * then signs its own word over the message, the origin's certificate and the pane it goes to.
 * The receiving machine checks the lead's word with the lead's pinned key, and the origin's
 * signature with the certificate the lead vouched for. Pure apart from `node:crypto`.
 */
import { createHash, sign, verify, X509Certificate, type KeyObject } from 'node:crypto';
import { CREW_WINDOW_MS, type CrewWalkyItem, type WalkyEnvelope, type WalkyVerified } from '@collie/protocol';
import { memo } from './memo';

/** JSON with its object keys sorted, so both ends hash the same bytes. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

/** The bytes the origin signs. */
export const envelopeText = (e: WalkyEnvelope) => `collie-walky-v1\n${sha(canonical(e))}`;

/** The bytes the lead signs: the message, the origin's signature and certificate, and where it goes. */
export function leadText(e: WalkyEnvelope, sig: string, cert: string | undefined, member: string, pane: string): string {
  return ['collie-walky-lead-v1', sha(canonical(e)), sig, cert ? sha(cert) : '-', member, pane].join('\n');
}

export const signText = (text: string, key: KeyObject) => sign(null, Buffer.from(text, 'utf8'), key).toString('base64url');

export function verifyText(text: string, sig: string, key: KeyObject): boolean {
  try {
    return verify(null, Buffer.from(text, 'utf8'), key, Buffer.from(sig, 'base64url'));
  } catch {
    return false;
  }
}

/** The public key of a certificate (DER, base64url), or null when it does not parse. */
export const certKey = memo((der: string): KeyObject | null => {
  try {
    return new X509Certificate(Buffer.from(der, 'base64url')).publicKey;
  } catch {
    return null;
  }
});

/** A message's clock against this machine's: more than 10 minutes either way is `stale`. */
export const isStale = (at: number, now: number) => Math.abs(now - at) > CREW_WINDOW_MS;

export type ItemCheck = { ok: true; verified: WalkyVerified } | { ok: false; reason: 'stale' | 'bad signature' };

/**
 * A member's check of one message the lead passed on. The lead's word must hold over all of it;
 * then the origin's own signature decides between `origin` (checked here, against the
 * certificate the lead vouched for, or the lead's own key when the lead is the origin) and
 * `lead` (no certificate came: this machine trusts the lead's check).
 */
export function checkItem(item: CrewWalkyItem, me: string, lead: { name: string; key: KeyObject }, now: number): ItemCheck {
  const e = item.envelope;
  if (!verifyText(leadText(e, item.sig, item.cert, me, item.pane), item.lead_sig, lead.key)) return { ok: false, reason: 'bad signature' };
  if (isStale(e.at, now)) return { ok: false, reason: 'stale' };
  const originKey = e.origin === lead.name && !item.cert ? lead.key : item.cert ? certKey(item.cert) : null;
  if (!originKey) return { ok: true, verified: 'lead' };
  return verifyText(envelopeText(e), item.sig, originKey) ? { ok: true, verified: 'origin' } : { ok: false, reason: 'bad signature' };
}
