// The order book of one coin in the local Hyperliquid: price-time priority, matching of a crossing
// order against resting liquidity at the resting orders' prices.

/** A resting or incoming order; amounts are bigint counts of 10^-18 (src/admin/venues/hyperliquid-numbers.ts). */
export interface BookOrder {
  readonly oid: number
  readonly user: string
  readonly coin: string
  readonly isBuy: boolean
  readonly limitPx: bigint
  readonly origSz: bigint
  /** What is left to fill. */
  sz: bigint
  readonly timestamp: number
  readonly cloid: string | null
  readonly tif: 'Gtc' | 'Ioc' | 'Alo'
  readonly reduceOnly: boolean
  status: string
  statusTimestamp: number
}

/** One match: the resting order, the size and its price. */
export interface Match {
  readonly maker: BookOrder
  readonly sz: bigint
  readonly px: bigint
}

export class Book {
  /** Best first: bids by price descending, asks ascending; time priority within a price. */
  readonly bids: BookOrder[] = []
  readonly asks: BookOrder[] = []

  bestBid(): bigint | undefined {
    return this.bids[0]?.limitPx
  }

  bestAsk(): bigint | undefined {
    return this.asks[0]?.limitPx
  }

  /** Whether an order at this price and side would match at once. */
  crosses(isBuy: boolean, px: bigint): boolean {
    const best = isBuy ? this.bestAsk() : this.bestBid()
    return best !== undefined && (isBuy ? px >= best : px <= best)
  }

  /** Matches `taker` against the other side up to its limit; removes filled resting orders; returns the matches. */
  match(taker: BookOrder, canTrade: (maker: BookOrder) => boolean): Match[] {
    const side = taker.isBuy ? this.asks : this.bids
    const out: Match[] = []
    let i = 0
    while (taker.sz > 0n && i < side.length) {
      const maker = side[i]!
      if (taker.isBuy ? maker.limitPx > taker.limitPx : maker.limitPx < taker.limitPx) break
      if (!canTrade(maker)) {
        i++
        continue
      }
      const sz = maker.sz < taker.sz ? maker.sz : taker.sz
      maker.sz -= sz
      taker.sz -= sz
      out.push({ maker, sz, px: maker.limitPx })
      if (maker.sz === 0n) side.splice(i, 1)
    }
    return out
  }

  rest(order: BookOrder): void {
    const side = order.isBuy ? this.bids : this.asks
    const better = (o: BookOrder) => (order.isBuy ? o.limitPx >= order.limitPx : o.limitPx <= order.limitPx)
    let at = 0
    while (at < side.length && better(side[at]!)) at++
    side.splice(at, 0, order)
  }

  remove(order: BookOrder): void {
    const side = order.isBuy ? this.bids : this.asks
    const at = side.indexOf(order)
    if (at >= 0) side.splice(at, 1)
  }

  /** Levels aggregated by price, best first, at most `max` per side: [bids, asks]. */
  levels(max: number): [{ px: bigint; sz: bigint; n: number }[], { px: bigint; sz: bigint; n: number }[]] {
    const agg = (orders: BookOrder[]) => {
      const out: { px: bigint; sz: bigint; n: number }[] = []
      for (const o of orders) {
        const last = out[out.length - 1]
        if (last !== undefined && last.px === o.limitPx) {
          last.sz += o.sz
          last.n++
        } else if (out.length < max) out.push({ px: o.limitPx, sz: o.sz, n: 1 })
        else break
      }
      return out
    }
    return [agg(this.bids), agg(this.asks)]
  }
}
