// Mark prices of native markets. A mark moves only in a block that traded, to the median of the
// best bid, the best ask and the last trade price: one print far from a standing book cannot drag
// the mark (and so liquidations) with it, and a one-sided book falls back to the last trade.
import { markLeaf } from './state-root.ts'
import type { BlockContext } from './action-context.ts'
import type { ChainState } from './types.ts'

/** Median of three integers. */
export function median3(a: number, b: number, c: number): number {
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c))
}

/** Updates the marks of the native markets that traded in this block. Bounded by that set. */
export function updateMarks(state: ChainState, traded: ReadonlySet<number>): void {
  for (const id of traded) {
    const market = state.markets.get(id)
    const book = state.books.get(id)
    if (market === undefined || book === undefined || market.routing !== 'native') continue
    const bid = book.bestBid()
    const ask = book.bestAsk()
    const mark = bid !== undefined && ask !== undefined ? median3(bid, ask, market.lastTradeTicks) : market.lastTradeTicks
    if (mark > 0 && mark !== market.markTicks) {
      market.markTicks = mark
      markLeaf(state, market)
    }
  }
}

/** The end-of-block hook form of updateMarks. */
export const updateMarksHook = (ctx: BlockContext): void => updateMarks(ctx.state, ctx.traded)
