/**
 * Signing and checking crew requests (docs/crew.md, "The link"). Ed25519 over method, path,
 * body hash, timestamp, nonce, key id and the receiver's key id, so a request signed for one
 * machine is refused by every other. The check is pure apart from the clock and the replay
 * memory it is given.
 */
import { createHash, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { CREW_WINDOW_MS, formatSignatureHeader, parseSignatureHeader, signedText, type CrewRefusal } from '@collie/protocol';

export const bodyHash = (body: Uint8Array | string) => createHash('sha256').update(body).digest('hex');

/** The `Collie-Crew-Signature` value for one request. */
export function signRequest(o: { key: KeyObject; keyId: string; to: string; method: string; path: string; body: Uint8Array | string; now?: number; nonce?: string }): string {
  const ts = o.now ?? Date.now();
  const nonce = o.nonce ?? randomBytes(16).toString('base64url');
  const text = signedText(o.method, o.path, bodyHash(o.body), ts, nonce, o.keyId, o.to);
  const sig = sign(null, Buffer.from(text, 'utf8'), o.key).toString('base64url');
  return formatSignatureHeader({ key: o.keyId, to: o.to, ts, nonce, sig });
}

/** What the receiver knows of a key id. */
export type KeyStanding = { status: 'member'; key: KeyObject; name: string } | { status: 'removed'; name: string } | null;

/** Nonces seen inside the window, per key: a replay is refused even after a restart when `saved` is kept. */
export class ReplayMemory {
  private readonly seen = new Map<string, number>();
  constructor(entries: Iterable<[string, number]> = []) {
    for (const [k, ts] of entries) this.seen.set(k, ts);
  }
  /** True when `key`+`nonce` is new (and remembers it); false for a replay. */
  claim(key: string, nonce: string, ts: number, now: number): boolean {
    this.prune(now);
    const id = `${key}:${nonce}`;
    if (this.seen.has(id)) return false;
    this.seen.set(id, ts);
    return true;
  }
  prune(now: number): void {
    for (const [id, ts] of this.seen) if (Math.abs(now - ts) > CREW_WINDOW_MS) this.seen.delete(id);
  }
  entries(): [string, number][] {
    return [...this.seen];
  }
}

/** `from`: the sender's crew name when its key is known (for the audit line). */
export type VerifyResult = { ok: true; keyId: string; name: string } | { ok: false; refusal: CrewRefusal; message: string; from?: string };

/**
 * The receiver: its own key id, and whether it takes a v1 signature (no receiver in it). A lead
 * takes one from its members (a member's key is known to its lead alone, so the request could
 * not have been meant for anyone else); a member does not (its lead signs for every member).
 */
export interface Receiver {
  keyId: string;
  unbound: boolean;
}

/**
 * Check one request: malformed, stale, removed, unknown key, bad signature, unbound,
 * misdirected, replay, in that order. A nonce is remembered only once its signature holds and
 * it names this machine, so a forger cannot burn one, nor a replay elsewhere.
 */
export function verifyRequest(
  r: { method: string; path: string; body: Uint8Array | string; header: string | undefined | null },
  lookup: (keyId: string) => KeyStanding,
  replay: ReplayMemory,
  now: number,
  me: Receiver,
): VerifyResult {
  const parts = parseSignatureHeader(r.header);
  if (!parts) return { ok: false, refusal: 'malformed', message: 'crew: no valid Collie-Crew-Signature header' };
  if (Math.abs(now - parts.ts) > CREW_WINDOW_MS) {
    return { ok: false, refusal: 'stale', message: `crew: stale: the request's clock is ${Math.round((parts.ts - now) / 60_000)} min off this machine's (10 min allowed)` };
  }
  const standing = lookup(parts.key);
  if (standing?.status === 'removed') return { ok: false, refusal: 'removed', message: `crew: removed: ${standing.name} was removed from this crew` };
  if (!standing) return { ok: false, refusal: 'unknown_key', message: 'crew: unknown_key: no member of this crew has that key' };
  const text = signedText(r.method, r.path, bodyHash(r.body), parts.ts, parts.nonce, parts.key, parts.to);
  let good = false;
  try {
    good = verify(null, Buffer.from(text, 'utf8'), standing.key, Buffer.from(parts.sig, 'base64url'));
  } catch {
    good = false;
  }
  if (!good) return { ok: false, refusal: 'bad_signature', message: 'crew: bad_signature: the signature does not match the request', from: standing.name };
  if (!parts.to && !me.unbound) {
    return { ok: false, refusal: 'unbound', message: `crew: unbound: ${standing.name} signed this request without naming its receiver (a Collie older than bound signatures); update ${standing.name}`, from: standing.name };
  }
  if (parts.to && parts.to !== me.keyId) return { ok: false, refusal: 'misdirected', message: `crew: misdirected: this request was signed for another machine (key ${parts.to}), not this one`, from: standing.name };
  if (!replay.claim(parts.key, parts.nonce, parts.ts, now)) return { ok: false, refusal: 'replay', message: 'crew: replay: this request was already received', from: standing.name };
  return { ok: true, keyId: parts.key, name: standing.name };
}
