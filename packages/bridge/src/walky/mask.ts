import type { WalkyAnswer, WalkyMessage } from '@collie/protocol';

/**
 * An answer of the walky socket with every body masked: `inbox` (`--all` too), `status` and
 * `send` print the same masked bodies the phone shows. The log already keeps them masked;
 * this covers a message answered before its line was read back (docs/walky.md, "Masking").
 */
export function maskAnswer(a: WalkyAnswer, mask: (body: string) => string): WalkyAnswer {
  const one = (m: WalkyMessage): WalkyMessage => ({ ...m, body: mask(m.body) });
  if (!a.ok) return a;
  if (a.verb === 'inbox') return { ...a, messages: a.messages.map(one) };
  if ('message' in a && a.message) return { ...a, message: one(a.message) } as WalkyAnswer;
  return a;
}
