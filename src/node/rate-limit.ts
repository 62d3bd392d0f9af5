// Token-bucket rate limits (spec §8: /action 50 requests/s per IP, 20/s per signer). A bucket holds
// up to one second of requests and refills continuously; idle buckets are dropped so the table
// stays bounded whatever the number of callers.

/** Buckets kept at most; past it the stalest are dropped (they would be full again anyway). */
export const RATE_LIMIT_KEYS_MAX = 100_000

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; atMs: number }>()

  /** ratePerSec 0 disables the limit. */
  constructor(readonly ratePerSec: number, private readonly now: () => number = Date.now) {}

  /** Takes weight tokens for key; false when the caller is over its rate (nothing is taken then). */
  take(key: string, weight = 1): boolean {
    if (this.ratePerSec <= 0) return true
    const now = this.now()
    let b = this.buckets.get(key)
    if (b === undefined) {
      if (this.buckets.size >= RATE_LIMIT_KEYS_MAX) this.evict(now)
      b = { tokens: this.ratePerSec, atMs: now }
      this.buckets.set(key, b)
    } else {
      b.tokens = Math.min(this.ratePerSec, b.tokens + ((now - b.atMs) * this.ratePerSec) / 1000)
      b.atMs = now
      // Re-insert so the Map's order stays least-recently-used first, for evict().
      this.buckets.delete(key)
      this.buckets.set(key, b)
    }
    if (b.tokens < weight) return false
    b.tokens -= weight
    return true
  }

  /** Drops the least recently used tenth of the buckets. */
  private evict(now: number): void {
    let n = Math.ceil(this.buckets.size / 10)
    for (const key of this.buckets.keys()) {
      if (n-- <= 0) break
      this.buckets.delete(key)
    }
    void now
  }
}
