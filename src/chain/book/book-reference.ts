/**
 * A deliberately naive order book with the same public contract as
 * {@link OrderBook}, used only by tests as an oracle for differential testing.
 *
 * Everything is a plain array of orders, re-sorted on every query; it is
 * O(n log n) per call and meant to be obviously correct rather than fast.
 * Do not use it in the engine.
 *
 * @module
 */

import type { BookOrder, FillCap, LevelView, MatchPlan, PlannedFill, Side } from './book.ts'

interface Entry<O> {
  readonly order: O
  /** Arrival sequence: time priority. Amend-down and partial fills keep it. */
  readonly seq: number
}

/** Naive reference implementation of the {@link OrderBook} contract (tests only). */
export class ReferenceBook<O extends BookOrder> {
  private entries: Entry<O>[] = []
  private nextSeq = 0

  /** Number of resting orders on both sides. */
  get size(): number {
    return this.entries.length
  }

  /** The resting order with this id, if any. */
  get(id: number): O | undefined {
    return this.entries.find((e) => e.order.id === id)?.order
  }

  /** Rests `order` at the back of its price level; throws like {@link OrderBook.insert}. */
  insert(order: O): void {
    if (!Number.isSafeInteger(order.id) || order.id < 0) throw new RangeError('reference book: bad id')
    if (this.get(order.id) !== undefined) throw new RangeError('reference book: id already resting')
    if (!Number.isSafeInteger(order.priceTicks) || order.priceTicks <= 0) throw new RangeError('reference book: bad price')
    if (!Number.isSafeInteger(order.remainingLots) || order.remainingLots <= 0) throw new RangeError('reference book: bad lots')
    if (order.side !== 'Bid' && order.side !== 'Ask') throw new RangeError('reference book: bad side')
    if (this.wouldCross(order.side, order.priceTicks)) throw new RangeError('reference book: would cross')
    this.entries.push({ order, seq: this.nextSeq++ })
  }

  /** Cancels a resting order; returns it or undefined if unknown. */
  remove(id: number): O | undefined {
    const entry = this.entries.find((e) => e.order.id === id)
    if (entry === undefined) return undefined
    this.entries = this.entries.filter((e) => e !== entry)
    return entry.order
  }

  /** Same contract as {@link OrderBook.planMatch}. */
  planMatch(
    takerSide: Side,
    takerOwner: string,
    limitTicks: number | null,
    qtyLots: number,
    maxFills: number,
    fillCap?: FillCap<O>,
  ): MatchPlan<O> {
    if (!Number.isSafeInteger(qtyLots) || qtyLots <= 0) throw new RangeError('reference book: bad qty')
    if (!Number.isSafeInteger(maxFills) || maxFills < 0) throw new RangeError('reference book: bad maxFills')
    const makerSide: Side = takerSide === 'Bid' ? 'Ask' : 'Bid'
    const acceptable = (price: number): boolean => limitTicks === null || (takerSide === 'Bid' ? price <= limitTicks : price >= limitTicks)

    const fills: PlannedFill<O>[] = []
    const selfTradeMakers: O[] = []
    let remaining = qtyLots
    let truncated = false
    for (const maker of this.sorted(makerSide)) {
      if (remaining === 0) break
      if (!acceptable(maker.priceTicks)) break
      if (maker.owner === takerOwner) {
        selfTradeMakers.push(maker)
        continue
      }
      let lots = Math.min(remaining, maker.remainingLots)
      if (fillCap !== undefined) {
        const capped = fillCap(maker, lots)
        if (!Number.isSafeInteger(capped) || capped < 0 || capped > lots) throw new RangeError('reference book: bad fill cap')
        // A maker capped to nothing is passed over: not a fill, not a reason to stop.
        if (capped === 0) continue
        lots = capped
      }
      if (fills.length === maxFills) {
        truncated = true
        break
      }
      fills.push({ maker, lots, priceTicks: maker.priceTicks })
      remaining -= lots
    }
    return { fills, filledLots: qtyLots - remaining, selfTradeMakers, truncated }
  }

  /** Reduces a resting order by `lots`, removing it at 0. */
  fill(id: number, lots: number): void {
    const order = this.get(id)
    if (order === undefined) throw new RangeError('reference book: unknown order')
    if (!Number.isSafeInteger(lots) || lots <= 0 || lots > order.remainingLots) throw new RangeError('reference book: bad fill')
    order.remainingLots -= lots
    if (order.remainingLots === 0) this.remove(id)
  }

  /** Amends a resting order down, keeping priority; 0 removes it. */
  setRemaining(id: number, lots: number): void {
    const order = this.get(id)
    if (order === undefined) throw new RangeError('reference book: unknown order')
    if (!Number.isSafeInteger(lots) || lots < 0 || lots > order.remainingLots) throw new RangeError('reference book: bad amend')
    order.remainingLots = lots
    if (lots === 0) this.remove(id)
  }

  /** Highest resting bid price, if any. */
  bestBid(): number | undefined {
    return this.sorted('Bid')[0]?.priceTicks
  }

  /** Lowest resting ask price, if any. */
  bestAsk(): number | undefined {
    return this.sorted('Ask')[0]?.priceTicks
  }

  /** Aggregated levels from the best price outwards, at most `depth`. */
  levels(side: Side, depth: number): LevelView[] {
    const out: { priceTicks: number; lots: number; orders: number }[] = []
    for (const order of this.sorted(side)) {
      const last = out[out.length - 1]
      if (last !== undefined && last.priceTicks === order.priceTicks) {
        last.lots += order.remainingLots
        last.orders += 1
      } else {
        out.push({ priceTicks: order.priceTicks, lots: order.remainingLots, orders: 1 })
      }
    }
    return out.slice(0, depth)
  }

  /** Orders of one side in priority order, at most `limit`. */
  ordersOf(side: Side, limit: number): O[] {
    return this.sorted(side).slice(0, limit)
  }

  /** Whether a limit order at `priceTicks` on `side` would reach the opposite best. */
  wouldCross(side: Side, priceTicks: number): boolean {
    if (side === 'Bid') {
      const ask = this.bestAsk()
      return ask !== undefined && priceTicks >= ask
    }
    const bid = this.bestBid()
    return bid !== undefined && priceTicks <= bid
  }

  /** One side's orders, best price first, then arrival order. */
  private sorted(side: Side): O[] {
    return this.entries
      .filter((e) => e.order.side === side)
      .sort((a, b) => {
        if (a.order.priceTicks !== b.order.priceTicks) {
          return side === 'Bid' ? b.order.priceTicks - a.order.priceTicks : a.order.priceTicks - b.order.priceTicks
        }
        return a.seq - b.seq
      })
      .map((e) => e.order)
  }
}
