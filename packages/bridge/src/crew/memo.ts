/**
 * A parse remembered by its text. A crew's requests name the same few certificates and keys
 * again and again, and each parse through OpenSSL is hundreds of native allocations: in the
 * soak (heaptrack, 2026-12-07) the crew's certificate and key parses were a million of them in
 * ten minutes. At most `max` texts are kept; past that all are forgotten and kept anew. A parse
 * that throws is not kept.
 */
export function memo<R>(parse: (text: string) => R, max = 64): (text: string) => R {
  const kept = new Map<string, R>();
  return (text) => {
    if (kept.has(text)) return kept.get(text) as R;
    const r = parse(text);
    if (kept.size >= max) kept.clear();
    kept.set(text, r);
    return r;
  };
}
