// Fixed-window attempt counters per key (an IP or an address), for the login path.

/** Keys tracked at most per limiter; past it expired windows are dropped, then the oldest. */
export const RATE_LIMIT_KEYS_MAX = 50_000

/** An attempt allowed, or refused with the seconds until the window ends. */
export type RateDecision = { readonly ok: true } | { readonly ok: false; readonly retryAfterSecs: number }

/** `limit` attempts per `windowMs` per key, in fixed windows; bounded by RATE_LIMIT_KEYS_MAX keys. */
export class RateLimiter {
  private readonly windows = new Map<string, { startMs: number; count: number }>()

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Whether one more attempt for key would be within the limit, without counting it. */
  peek(key: string): RateDecision {
    const now = this.clock()
    const w = this.windows.get(key)
    if (w === undefined || now - w.startMs >= this.windowMs || w.count < this.limit) return { ok: true }
    return { ok: false, retryAfterSecs: Math.max(1, Math.ceil((w.startMs + this.windowMs - now) / 1000)) }
  }

  /** Counts one attempt for key and says whether it is within the limit. */
  hit(key: string): RateDecision {
    const now = this.clock()
    let w = this.windows.get(key)
    if (w === undefined || now - w.startMs >= this.windowMs) {
      if (w === undefined && this.windows.size >= RATE_LIMIT_KEYS_MAX) this.evict(now)
      w = { startMs: now, count: 0 }
      this.windows.delete(key)
      this.windows.set(key, w)
    }
    w.count++
    if (w.count <= this.limit) return { ok: true }
    return { ok: false, retryAfterSecs: Math.max(1, Math.ceil((w.startMs + this.windowMs - now) / 1000)) }
  }

  private evict(now: number): void {
    for (const [k, w] of this.windows) if (now - w.startMs >= this.windowMs) this.windows.delete(k)
    while (this.windows.size >= RATE_LIMIT_KEYS_MAX) this.windows.delete(this.windows.keys().next().value as string)
  }
}
