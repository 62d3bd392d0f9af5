// mulberry32: a tiny seeded PRNG, so a seed gives the same workload or test sequence every run.
// Not for anything secret.

/** A generator of uniform unsigned 32-bit integers from `seed` (mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }
}

/** A generator of uniform numbers in [0, 1) from `seed` (mulberry32's integers over 2^32). */
export function mulberry32Unit(seed: number): () => number {
  const next = mulberry32(seed)
  return () => next() / 4294967296
}
