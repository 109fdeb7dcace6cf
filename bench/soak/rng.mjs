// A seeded random source (mulberry32): the same seed makes the same schedule.
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
    /** One of the keys of `weights`, in proportion to its weight. */
    weighted(weights) {
      const total = Object.values(weights).reduce((s, w) => s + w, 0);
      let r = next() * total;
      for (const [k, w] of Object.entries(weights)) if ((r -= w) < 0) return k;
      return Object.keys(weights)[0];
    },
  };
}
