// CompleteDelist (docs/markets.md#completedelist-settlement-at-the-mark): a DelistPending market is
// sealed as Delisted, at any time after the request. It cancels every resting order, settles every
// residual position at the mark, and keeps the market's entry (its id is never reused; its symbol
// is released for a new market). Trigger orders and OCO pairs of the market are cancelled first
// (triggers.ts cancelMarketTriggers).
//
// Settlement at the mark closes every position against all the others at once: positions net to
// zero across accounts (Book B and the insurance fund included), so paying longs size x mark and
// charging shorts the same is exact in real numbers. In SCALE_6 each settlement rounds against its
// account (a long receives floor(size x mark), a short pays ceil(size x mark)), which leaves a
// non-negative dust, at most one unit per position; it goes to the insurance fund. So the sum over
// accounts of balance + isolated margin - cost basis is conserved exactly, and no account gains
// from rounding. A loss larger than an account's collateral leaves a negative balance (bad debt),
// reported in the DelistSettlement event like any other realized PnL.
import { assert } from '../../lib/assert.ts'
import type { MarketOnlyPayload } from '../../wire/actions.ts'
import type { EventSink } from '../core/events.ts'
import { divCeil, notionalOf } from '../core/math.ts'
import { reject } from '../core/reasons.ts'
import type { Account, ChainState, Market, Order } from '../core/types.ts'
import { positionFor, settlePosition } from '../margin/positions.ts'
import { cancelRestingOrder, credit, creditAccount } from '../orders/order-ops.ts'
import { markLeaf } from '../state/state-root.ts'
import { cancelMarketTriggers } from '../triggers/triggers.ts'
import { BOOK_B_ADDRESS } from './external-peg.ts'
import { changeLifecycle, findManagedMarket } from './lifecycle.ts'
import type { MarketOutcome } from './tradable.ts'

/** Notional of lots at a price in SCALE_6, rounded up (what a short pays to close at the mark). */
function notionalCeil(market: Market, priceTicks: number, lots: number): bigint {
  return divCeil(BigInt(priceTicks) * BigInt(lots) * market.notionalMultiplier, market.notionalDivisor)
}

/** CompleteDelist: DelistPending -> Delisted; see the file comment. */
export function completeDelist(state: ChainState, admin: Account, p: MarketOnlyPayload, events: EventSink): MarketOutcome {
  const found = findManagedMarket(state, p)
  if (!found.ok) return found
  const market = found.market
  if (market.lifecycle !== 'DelistPending') {
    const why =
      market.lifecycle === 'Created'
        ? 'normal delisting is refused for Created markets (use CancelMarket)'
        : 'RequestDelist must come first'
    return reject('InvalidLifecycleTransition', `CompleteDelist refused: ${market.symbol} is ${market.lifecycle}; ${why}`)
  }
  // After this point the delisting must succeed.
  // Triggers and OCO pairs first: a pair's limit leg still resting goes with its pair.
  cancelMarketTriggers(state, market.marketId, events)
  const ordersCancelled = cancelAllResting(state, market, events)
  const { settled, dust } = settleAtMark(state, market, events)
  const recipient = state.params.insuranceFund
  if (dust > 0n) credit(state, recipient, dust)
  market.openInterestLots = 0
  markLeaf(state, market)
  events.push({
    kind: 'Ops',
    sub_kind: 'DelistCompleted',
    market_id: market.marketId,
    account: admin.address,
    orders_cancelled: ordersCancelled,
    positions_settled: settled,
    settlement_dust: dust,
    dust_recipient: recipient,
  })
  changeLifecycle(state, market, 'Delisted', null, admin.address, events)
  return { ok: true, marketId: market.marketId }
}

/** Cancels every resting order of the market (bounded by the book's size), bids then asks, each in book order. */
function cancelAllResting(state: ChainState, market: Market, events: EventSink): number {
  const book = state.books.get(market.marketId)!
  // Collected first: cancelling removes orders from the book being walked.
  const resting: Order[] = [...book.ordersOf('Bid', book.size), ...book.ordersOf('Ask', book.size)]
  for (const order of resting) cancelRestingOrder(state, state.accounts.get(order.owner)!, order, 'MarketDelisted', events)
  assert(book.size === 0, `delisting ${market.symbol} left ${book.size} orders on its book`)
  return resting.length
}

/**
 * Closes every position of the market at its mark (bounded by the market's position holders), in
 * the order the holders index keeps (first position first). Returns how many and the dust.
 */
function settleAtMark(state: ChainState, market: Market, events: EventSink): { settled: number; dust: bigint } {
  const holders = [...(state.positionHolders.get(market.marketId) ?? [])]
  const mark = market.markTicks
  let signedValues = 0n
  let settled = 0
  for (const address of holders) {
    const account = state.accounts.get(address)!
    const pos = account.positions.get(market.marketId)
    if (pos === undefined || pos.sizeLots === 0) continue
    const lots = Math.abs(pos.sizeLots)
    const value = pos.sizeLots > 0 ? notionalOf(market, mark, lots) : -notionalCeil(market, mark, lots)
    const pnl = value - pos.costBasis
    const released = pos.isolatedMargin
    const size = pos.sizeLots
    positionFor(state, account, market)
    pos.realizedPnl += pnl
    pos.sizeLots = 0
    pos.costBasis = 0n
    pos.isolatedMargin = 0n
    settlePosition(state, account, pos)
    creditAccount(state, account, pnl + released)
    if (address === BOOK_B_ADDRESS) market.oracle.counterRealizedPnl += pnl
    signedValues += value
    settled++
    events.push({
      kind: 'Liquidation',
      sub_kind: 'DelistSettlement',
      market_id: market.marketId,
      account: address,
      size_lots: size,
      price_ticks: mark,
      realized_pnl: pnl,
    })
  }
  // Longs and shorts net to zero, so the exact values sum to 0; rounding against each account
  // leaves the sum at or below 0.
  assert(signedValues <= 0n, `delist settlement of ${market.symbol} rounded in the accounts' favour`)
  return { settled, dust: -signedValues }
}
