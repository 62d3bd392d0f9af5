// Mark prices of native markets (external-peg markets take the mark of their oracle quote, set
// when a quote is accepted: oracle.ts). The rule, documented in docs/markets.md:
//
//   The mark moves only at the end of a block in which the market traded, to the median of three
//   prices that an attacker cannot all move at once:
//     both sides quoted:  median(best bid, best ask, last trade)
//     one side quoted:    median(that side, last trade, previous mark)
//     empty book:         the last trade
//
// A print far from a standing two-sided book is clipped to the book's edge; with a one-sided book
// the previous mark takes the place of the missing side, so a trade that sweeps one side and
// prints an outlier cannot drag the mark (and so liquidations) past both the surviving side and
// where the mark stood. A trade that empties the book took real liquidity at its price and is the
// only price left, so it becomes the mark.

import type { BlockContext } from '../core/action-context.ts'
import type { ChainState } from '../core/types.ts'
import { markLeaf } from '../state/state-root.ts'

/** Median of three integers. */
export function median3(a: number, b: number, c: number): number {
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c))
}

/** The new mark of a native market from its book's best prices (undefined: that side is empty), its last trade and its previous mark. */
export function nativeMark(bid: number | undefined, ask: number | undefined, lastTrade: number, previous: number): number {
  if (bid !== undefined && ask !== undefined) return median3(bid, ask, lastTrade)
  const side = bid ?? ask
  if (side === undefined) return lastTrade
  return previous === 0 ? lastTrade : median3(side, lastTrade, previous)
}

/** Updates the marks of the native markets that traded in this block. Bounded by that set. */
export function updateMarks(state: ChainState, traded: ReadonlySet<number>): void {
  for (const id of traded) {
    const market = state.markets.get(id)
    const book = state.books.get(id)
    if (market === undefined || book === undefined || market.routing !== 'native' || market.lastTradeTicks === 0) continue
    const mark = nativeMark(book.bestBid(), book.bestAsk(), market.lastTradeTicks, market.markTicks)
    if (mark > 0 && mark !== market.markTicks) {
      market.markTicks = mark
      markLeaf(state, market)
    }
  }
}

/** The end-of-block hook form of updateMarks. */
export const updateMarksHook = (ctx: BlockContext): void => updateMarks(ctx.state, ctx.traded)
