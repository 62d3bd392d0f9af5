// The margin check of an order (PlaceOrder and whatever places orders through placeOrder), on the
// plan of its fills and its resting remainder. Pure: it reads the state and the simulated outcome.
//
// Which figure decides (docs/liquidation.md#3-order-admission-margin-checkts):
// - An order that opens or adds exposure (it increases or flips the position, or rests lots that
//   would) in Cross mode: cross_trading_available after the order must stay >= 0.
// - The same in Isolated mode: the margin it locks into the position (at fill) and holds for its
//   resting lots comes out of the cross cash, so cross_cash_available after the order must stay
//   >= 0, and cross_trading_available too (cross losses cannot fund an isolated position).
// - An order that only reduces (reduce-only, or a plain order that closes without resting
//   opening lots): admitted while cross_cash_available after it stays >= 0, or when the order does
//   not lower it and a Cross position remains. Closing a losing position realizes the loss into
//   the balance; refusing a close that would push the cross cash below zero keeps a bankrupt
//   account from realizing losses beyond its collateral by trading (or from leaving a negative
//   balance that nothing backs): such a position is left to the liquidator, who closes it at the
//   mark with bad debt accounted (liquidation.ts).

import { type Rejection, reject } from '../core/reasons.ts'
import type { Account, ChainState, MarginMode, Market, Position } from '../core/types.ts'
import { canAfford, crossCashAvailable, crossTradingAvailable, positionMargin, unrealizedPnl } from './margin.ts'

/** What the order's fills would do to the taker (place-order.ts simulateTaker). */
export interface FillsOutcome {
  /** The taker's position after the fills (flat when they close it). */
  readonly position: Position
  readonly realizedPnl: bigint
  readonly totalFees: bigint
  /** Sum of the fills' isolated-margin transfers to the balance (positions.ts applyTrade). */
  readonly isolatedTransfer: bigint
  /** positionMargin and unrealizedPnl of the position after the fills. */
  readonly margin: bigint
  readonly upnl: bigint
}

export interface OrderMarginCase {
  readonly state: ChainState
  readonly account: Account
  readonly market: Market
  /** The position before the order, if any. */
  readonly position: Position | undefined
  /** The margin mode the order trades in: its position's, or the account's setting when flat. */
  readonly marginMode: MarginMode
  readonly reduceOnly: boolean
  /** Whether the fills increase or flip the position. */
  readonly increases: boolean
  /** Margin the resting remainder would hold (0 when nothing rests or it only reduces). */
  readonly restMargin: bigint
  /** The fills' outcome, or undefined when the order does not fill. */
  readonly after: FillsOutcome | undefined
}

/** Why the order cannot be afforded, or undefined when it can. */
export function checkOrderMargin(c: OrderMarginCase): Rejection | undefined {
  const { state, account, after } = c
  const opens = !c.reduceOnly && (c.increases || c.restMargin > 0n)
  if (after === undefined) {
    // No fills: the position and its uPnL stay as they are; only the resting margin counts.
    if (!opens) return undefined
    if (c.marginMode === 'Cross') {
      // The common case of a resting order: decided in doubles where exact (margin.ts canAfford).
      return canAfford(state, account, c.restMargin)
        ? undefined
        : shortOf(crossTradingAvailable(state, account) - c.restMargin, 'cross_trading_available')
    }
    return isolatedShort(state, account, c.restMargin)
  }
  // The change of the Cross part's margin and uPnL: an Isolated position is outside it.
  const before = c.position
  const crossMarginBefore = before !== undefined && before.marginMode === 'Cross' ? positionMargin(c.market, before) : 0n
  const crossUpnlBefore = before !== undefined && before.marginMode === 'Cross' ? unrealizedPnl(c.market, before) : 0n
  const crossAfter = after.position.marginMode === 'Cross'
  const marginDelta = (crossAfter ? after.margin : 0n) - crossMarginBefore
  const upnlDelta = (crossAfter ? after.upnl : 0n) - crossUpnlBefore
  // Money the order moves into (or out of) the balance, and the margin its remainder holds.
  const cashFlow = after.realizedPnl + after.isolatedTransfer - after.totalFees - c.restMargin
  if (opens) {
    if (c.marginMode === 'Isolated') return isolatedShort(state, account, -(cashFlow - marginDelta))
    const tradingAfter = crossTradingAvailable(state, account) + cashFlow + upnlDelta - marginDelta
    return tradingAfter >= 0n ? undefined : shortOf(tradingAfter, 'cross_trading_available')
  }
  // Only reduces: the cross cash must stay >= 0, unless the order does not lower it and a Cross
  // position is left to back a negative balance (else that balance would be bad debt).
  const cashDelta = cashFlow - marginDelta
  if (cashDelta >= 0n && crossPositionRemains(account, c.market.marketId, crossAfter && after.position.sizeLots !== 0)) return undefined
  const cashAfter = crossCashAvailable(state, account) + cashDelta
  return cashAfter >= 0n ? undefined : shortOf(cashAfter, 'cross_cash_available')
}

/** Whether the account keeps an open Cross position after the order: the order's own, or another. */
function crossPositionRemains(account: Account, marketId: number, ownRemains: boolean): boolean {
  if (ownRemains) return true
  for (const pos of account.positions.values())
    if (pos.marketId !== marketId && pos.sizeLots !== 0 && pos.marginMode === 'Cross') return true
  return false
}

/** An Isolated order's cost out of the cross part: both cross figures must cover it. */
function isolatedShort(state: ChainState, account: Account, cost: bigint): Rejection | undefined {
  const cashAfter = crossCashAvailable(state, account) - cost
  if (cashAfter < 0n) return shortOf(cashAfter, 'cross_cash_available')
  const tradingAfter = crossTradingAvailable(state, account) - cost
  return tradingAfter >= 0n ? undefined : shortOf(tradingAfter, 'cross_trading_available')
}

const shortOf = (after: bigint, basis: string): Rejection => reject('InsufficientMargin', `needs ${-after} more SCALE_6 of ${basis}`)

/** The InsufficientMargin rejection of an order that leaves `after` (< 0) of the figure `basis`. */
export const insufficientMargin = shortOf
