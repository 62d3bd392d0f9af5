// Token-bucket rate limits per key (a client IP, a signer, an IP and address), for both servers:
// the node's /action limits (by default 50 requests/s per IP, 20/s per signer:
// docs/limits.md#action-rate-limits) and the admin service's login limits (attempts per minute). A
// key's bucket holds up to `capacity` tokens and refills continuously at `capacity` per `periodMs`,
// so a caller may burst a full bucket and then keeps to the rate. The table of buckets is bounded:
// when it is full, buckets idle long enough to be full again go first (dropping them changes
// nothing), then the least recently used.

/** Buckets kept at most by default. */
export const RATE_LIMIT_KEYS_MAX = 100_000

/** A take allowed, or refused with the whole seconds until it would be allowed (at least 1). */
export type RateDecision = { readonly ok: true } | { readonly ok: false; readonly retryAfterSecs: number }

const ALLOWED: RateDecision = { ok: true }

interface Bucket {
  tokens: number
  atMs: number
}

export class RateLimiter {
  // Map order is least recently used first: a bucket is re-inserted whenever it is taken from.
  private readonly buckets = new Map<string, Bucket>()

  /**
   * `capacity` tokens per `periodMs` per key (e.g. 50 per 1000 ms, 10 per 60,000 ms); capacity 0
   * disables the limit. At most `maxKeys` buckets are kept.
   */
  constructor(
    readonly capacity: number,
    readonly periodMs: number,
    private readonly clock: () => number = Date.now,
    readonly maxKeys: number = RATE_LIMIT_KEYS_MAX,
  ) {}

  /** Takes `weight` tokens from key's bucket; refused (and nothing taken) when there are fewer. */
  take(key: string, weight = 1): RateDecision {
    if (this.capacity <= 0) return ALLOWED
    const now = this.clock()
    let b = this.buckets.get(key)
    if (b === undefined) {
      if (this.buckets.size >= this.maxKeys) this.evict(now)
      b = { tokens: this.capacity, atMs: now }
    } else {
      this.refill(b, now)
      this.buckets.delete(key)
    }
    this.buckets.set(key, b)
    if (b.tokens < weight) return this.refusal(b.tokens, weight)
    b.tokens -= weight
    return ALLOWED
  }

  /** take(key, weight).ok: the form of the node's hot paths. */
  allow(key: string, weight = 1): boolean {
    return this.take(key, weight).ok
  }

  /** What take(key, weight) would decide now, without taking anything. */
  peek(key: string, weight = 1): RateDecision {
    if (this.capacity <= 0) return ALLOWED
    const b = this.buckets.get(key)
    if (b === undefined) return weight <= this.capacity ? ALLOWED : this.refusal(this.capacity, weight)
    const tokens = this.tokensAt(b, this.clock())
    return tokens >= weight ? ALLOWED : this.refusal(tokens, weight)
  }

  /** Buckets currently kept. */
  get size(): number {
    return this.buckets.size
  }

  private tokensAt(b: Bucket, now: number): number {
    return Math.min(this.capacity, b.tokens + (Math.max(0, now - b.atMs) * this.capacity) / this.periodMs)
  }

  private refill(b: Bucket, now: number): void {
    b.tokens = this.tokensAt(b, now)
    b.atMs = now
  }

  private refusal(tokens: number, weight: number): RateDecision {
    // A weight over the capacity never fits; say "a period" rather than never.
    const waitMs = weight > this.capacity ? this.periodMs : ((weight - tokens) * this.periodMs) / this.capacity
    return { ok: false, retryAfterSecs: Math.max(1, Math.ceil(waitMs / 1000)) }
  }

  /** Drops the buckets that are full again, then, if that freed too little, the least recently used tenth. */
  private evict(now: number): void {
    for (const [key, b] of this.buckets) if (this.tokensAt(b, now) >= this.capacity) this.buckets.delete(key)
    if (this.buckets.size < this.maxKeys) return
    let n = Math.ceil(this.buckets.size / 10)
    for (const key of this.buckets.keys()) {
      if (n-- <= 0) break
      this.buckets.delete(key)
    }
  }
}
