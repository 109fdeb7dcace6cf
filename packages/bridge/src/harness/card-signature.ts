import type { DialogCard } from '@collie/protocol';

const OFFSET = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;
const encoder = new TextEncoder();

/**
 * FNV-1a, 64 bits, over the UTF-8 bytes of `text`, as 16 hex digits. Not a secure hash: it
 * names what a card showed, so an answer can prove it was made for the dialog still open.
 * Written here rather than taken from `node:crypto` so screen readers stay free of `node:*`.
 *
 * @example
 * fnv1a64('') // 'cbf29ce484222325'
 */
export function fnv1a64(text: string): string {
  let hash = OFFSET;
  for (const byte of encoder.encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * PRIME) & MASK;
  }
  return hash.toString(16).padStart(16, '0');
}

/** The parts of a card a signature covers: what the person read, not where the pointer is. */
export type CardText = Omit<DialogCard, 'signature' | 'answerable'>;

/**
 * The signature of a card: kind, title, body, question, option numbers, labels and
 * descriptions, tab labels and the open tab. Left out on purpose: the focus pointer, checkbox
 * ticks and the tabs' answered marks (moving or ticking does not change the ask), and whether
 * the card may be answered right now.
 *
 * @example
 * cardSignature(card) === cardSignature({ ...card, options: card.options.map((o) => ({ ...o, checked: true })) }) // true
 */
export function cardSignature(card: CardText): string {
  return fnv1a64(
    JSON.stringify([
      card.kind,
      card.title,
      card.body,
      card.question,
      card.options.map((o) => [o.n, o.label, o.description]),
      card.tabs.map((t) => t.label),
      card.activeTab,
    ]),
  );
}
