// The hot feed's order book of one market: every resting order (L3) as the committed events describe
// it, aggregated into price levels kept sorted best-first. It is rebuilt from events only
// (OrderResting upserts, a fill sets the maker's remainder, OrderDone / OrderExpired remove), so it
// never reads the chain's own book; `version` moves on every visible change.

export type BookSide = 'Bid' | 'Ask'

export interface FeedOrder {
  readonly orderId: number
  readonly side: BookSide
  readonly priceTicks: number
  lots: number
  readonly owner: string
  readonly clientOrderId: string | null
}

/** Price levels of one side, best first: bids descending, asks ascending. */
class SideLevels {
  /** Prices with at least one order, best first. */
  readonly prices: number[] = []
  /** Total lots and order count by price. */
  readonly byPrice = new Map<number, { lots: number; count: number }>()

  constructor(private readonly descending: boolean) {}

  /** Index of the first price not better than `ticks` (binary search, O(log levels)). */
  private position(ticks: number): number {
    let lo = 0
    let hi = this.prices.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const p = this.prices[mid]!
      if (this.descending ? p > ticks : p < ticks) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  add(ticks: number, lots: number): void {
    const level = this.byPrice.get(ticks)
    if (level !== undefined) {
      level.lots += lots
      level.count++
      return
    }
    this.byPrice.set(ticks, { lots, count: 1 })
    this.prices.splice(this.position(ticks), 0, ticks)
  }

  /** Changes a level's lots by delta; removes the order from the count when removeOrder. */
  adjust(ticks: number, delta: number, removeOrder: boolean): void {
    const level = this.byPrice.get(ticks)
    if (level === undefined) return
    level.lots += delta
    if (removeOrder) level.count--
    if (level.count <= 0) {
      this.byPrice.delete(ticks)
      const i = this.position(ticks)
      if (this.prices[i] === ticks) this.prices.splice(i, 1)
    }
  }

  clear(): void {
    this.prices.length = 0
    this.byPrice.clear()
  }
}

export class FeedBook {
  private readonly orders = new Map<number, FeedOrder>()
  private readonly bids = new SideLevels(true)
  private readonly asks = new SideLevels(false)
  /** Moves on every change of the levels; consumers compare it to skip unchanged books. */
  version = 0

  get orderCount(): number {
    return this.orders.size
  }

  get bidLevels(): number {
    return this.bids.prices.length
  }

  get askLevels(): number {
    return this.asks.prices.length
  }

  get(orderId: number): FeedOrder | undefined {
    return this.orders.get(orderId)
  }

  /** Puts an order on the book, replacing an older record of the same id (a re-rest after an amend). */
  upsert(order: FeedOrder): void {
    this.remove(order.orderId)
    if (order.lots <= 0) return
    this.orders.set(order.orderId, order)
    this.side(order.side).add(order.priceTicks, order.lots)
    this.version++
  }

  /** Sets a resting order's remainder (after a fill); 0 removes it. Unknown ids are ignored. */
  setRemaining(orderId: number, lots: number): void {
    const order = this.orders.get(orderId)
    if (order === undefined) return
    if (lots <= 0) {
      this.remove(orderId)
      return
    }
    if (lots === order.lots) return
    this.side(order.side).adjust(order.priceTicks, lots - order.lots, false)
    order.lots = lots
    this.version++
  }

  /** Takes an order off the book; unknown ids are ignored (an IOC that never rested). */
  remove(orderId: number): void {
    const order = this.orders.get(orderId)
    if (order === undefined) return
    this.orders.delete(orderId)
    this.side(order.side).adjust(order.priceTicks, -order.lots, true)
    this.version++
  }

  clear(): void {
    this.orders.clear()
    this.bids.clear()
    this.asks.clear()
    this.version++
  }

  bestBid(): number | undefined {
    return this.bids.prices[0]
  }

  bestAsk(): number | undefined {
    return this.asks.prices[0]
  }

  /** The best `depth` levels of a side as [priceTicks, lots] pairs. */
  levels(side: BookSide, depth: number): [number, number][] {
    const s = this.side(side)
    const n = Math.min(depth, s.prices.length)
    const out: [number, number][] = new Array(n)
    for (let i = 0; i < n; i++) {
      const p = s.prices[i]!
      out[i] = [p, s.byPrice.get(p)!.lots]
    }
    return out
  }

  /** Every resting order, for tests and resync checks. */
  allOrders(): IterableIterator<FeedOrder> {
    return this.orders.values()
  }

  private side(side: BookSide): SideLevels {
    return side === 'Bid' ? this.bids : this.asks
  }
}
