// Market stats (MarketStatsResponse, docs/markets.md#market-stats-getmarketstats): the traders'
// long and short sizes, their net, and the oracle counterparty's (Book B's) PnL. Pure and O(1) per
// market: every position has a counterparty, so longs and shorts across all accounts both sum to
// the open interest, and the traders' sides are the open interest minus Book B's own side.

import { notionalOf } from '../core/math.ts'
import type { ChainState, Market } from '../core/types.ts'
import { unrealizedPnl } from '../margin/margin.ts'
import { BOOK_B_ADDRESS } from './external-peg.ts'

export interface MarketStats {
  /** Total long size of the traders (Book B excluded), lots. */
  readonly longLots: number
  /** Total short size of the traders, lots (positive). */
  readonly shortLots: number
  /** longLots - shortLots: the exposure Book B carries against the traders (its size, negated). */
  readonly netLots: number
  /** Book B's realized PnL in the market plus the uPnL of its position at the mark, SCALE_6. */
  readonly oracleCounterPnl: bigint
  /** Total long size, Book B included (open_interest). */
  readonly openInterestLots: number
  /** openInterestLots at the mark, SCALE_6. */
  readonly openInterestNotional: bigint
}

/** The stats of one market from the current state. */
export function marketStats(state: ChainState, market: Market): MarketStats {
  const counter = state.accounts.get(BOOK_B_ADDRESS)?.positions.get(market.marketId)
  const counterLots = counter?.sizeLots ?? 0
  const oi = market.openInterestLots
  const longLots = oi - Math.max(0, counterLots)
  const shortLots = oi - Math.max(0, -counterLots)
  return {
    longLots,
    shortLots,
    netLots: longLots - shortLots,
    oracleCounterPnl: market.oracle.counterRealizedPnl + (counter === undefined ? 0n : unrealizedPnl(market, counter)),
    openInterestLots: oi,
    openInterestNotional: notionalOf(market, market.markTicks, oi),
  }
}
