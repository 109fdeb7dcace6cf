import { createPublicKey, verify } from 'node:crypto';

/** What a push service reads from a VAPID `Authorization` header (RFC 8292 §2–3). */
export type VapidCheck = { ok: true; key: string; aud: string; sub: string; exp: number } | { ok: false; why: string };

const json = (s: string): unknown => JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));

/**
 * Check `Authorization: vapid t=<jwt>, k=<key>` as a push service does: an ES256 JWT signed by
 * the P-256 key `k`, its `aud` the endpoint's origin, `exp` within 24 hours, `sub` a mailto: or
 * https: contact.
 */
export function checkVapid(header: string | undefined, origin: string, now: number): VapidCheck {
  const m = /^vapid\s+t=([^,\s]+)\s*,\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) return { ok: false, why: 'no vapid Authorization header' };
  const [token, k] = [m[1]!, m[2]!];
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, why: 'the JWT has not three parts' };
  const [h, p, s] = parts as [string, string, string];
  let head: { alg?: unknown; typ?: unknown };
  let claims: { aud?: unknown; exp?: unknown; sub?: unknown };
  try {
    head = json(h) as typeof head;
    claims = json(p) as typeof claims;
  } catch {
    return { ok: false, why: 'the JWT is not JSON' };
  }
  if (head.alg !== 'ES256') return { ok: false, why: `alg ${String(head.alg)} is not ES256` };
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return { ok: false, why: 'k is not an uncompressed P-256 point' };
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  const good = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  if (!good) return { ok: false, why: 'the JWT signature does not verify with k' };
  if (claims.aud !== origin) return { ok: false, why: `aud ${String(claims.aud)} is not ${origin}` };
  const exp = typeof claims.exp === 'number' ? claims.exp : NaN;
  if (!(exp * 1000 > now && exp * 1000 <= now + 24 * 3600_000 + 60_000)) return { ok: false, why: 'exp is not within the next 24 hours' };
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:\/\/)/.test(claims.sub)) return { ok: false, why: 'sub is not a mailto: or https: URL' };
  return { ok: true, key: k, aud: claims.aud, sub: claims.sub, exp };
}
