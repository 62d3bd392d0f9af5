// The recent trades of one market: a fixed ring, oldest dropped first (10,000 per market,
// docs/limits.md#hot-read-rest).
import type { RecentTrade } from './types.ts'

/** Trades kept per market. */
export const TRADE_RING_SIZE = 10_000

export class TradeRing {
  private readonly slots: (RecentTrade | undefined)[]
  /** Index the next trade goes to. */
  private head = 0
  private count = 0

  constructor(readonly capacity: number = TRADE_RING_SIZE) {
    this.slots = new Array(capacity)
  }

  get size(): number {
    return this.count
  }

  push(trade: RecentTrade): void {
    this.slots[this.head] = trade
    this.head = (this.head + 1) % this.capacity
    if (this.count < this.capacity) this.count++
  }

  /** Newest first: skips the newest `offset`, then returns at most `limit`. */
  page(offset: number, limit: number): RecentTrade[] {
    const out: RecentTrade[] = []
    const end = Math.min(this.count, offset + limit)
    for (let i = offset; i < end; i++) {
      const idx = (this.head - 1 - i + this.capacity * 2) % this.capacity
      out.push(this.slots[idx]!)
    }
    return out
  }
}
