import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh message id: `wt_` and 12 random letters or digits (62 bits). */
export function newMessageId(): string {
  const bytes = randomBytes(12);
  let id = 'wt_';
  for (const b of bytes) id += ALPHABET[b % ALPHABET.length];
  return id;
}
