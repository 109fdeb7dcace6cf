/** Tokens, codes and their hashes. The bridge stores only SHA-256 hex of any secret. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { PAIRING_CODE_ALPHABET } from '@collie/protocol';

/** Random bytes, passed in so the core is deterministic under test. */
export type RandomBytes = (n: number) => Uint8Array;

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A 256-bit secret with a prefix that says what it is (`cd1_` device, `cp1_` pairing link). */
export function newToken(prefix: 'cd1_' | 'cp1_', random: RandomBytes): string {
  return prefix + Buffer.from(random(32)).toString('base64url');
}

/** 8 characters of a 32-letter alphabet (no 0/O, 1/I): 40 bits, enough for 10 minutes and 5 tries. */
export function newCode(random: RandomBytes): string {
  const bytes = random(8);
  let code = '';
  for (const b of bytes) code += PAIRING_CODE_ALPHABET[b & 31];
  return code;
}

/** A code as printed: `7KQ2-M9XD`. */
export function formatCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** Equal hex hashes, compared in constant time (both are SHA-256 hex, so lengths match). */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
