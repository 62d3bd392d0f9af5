// Mutations shared by the order actions: resting, removing and reserving margin for orders, and
// moving money. Each marks the leaves it changes.
import { newAccount } from '../access/accounts.ts'
import type { OrderBook } from '../book/book.ts'
import type { DoneReason, EventSink } from '../core/events.ts'
import { marginOf, notionalNumber, notionalOf } from '../core/math.ts'
import type { Account, ChainState, Market, Order } from '../core/types.ts'
import { releaseMargin, reserveMargin } from '../margin/reserved-margin.ts'
import { markLeaf, markOrderDirty } from '../state/state-root.ts'
import { indexRestingOrder, unindexRestingOrder } from './order-indexes.ts'

/** Margin an order holds for its opening lots at its price and leverage. */
export function orderMargin(market: Market, priceTicks: number, marginLots: number, leverage: number): bigint {
  return marginOfUnits(orderMarginUnits(market, priceTicks, marginLots, leverage), market, priceTicks, marginLots, leverage)
}

/** orderMargin as an exact number, or NaN when the notional is not a safe integer (Order.marginHeldUnits). */
export function orderMarginUnits(market: Market, priceTicks: number, marginLots: number, leverage: number): number {
  if (marginLots === 0) return 0
  const n = notionalNumber(market, priceTicks, marginLots)
  // The ceiling of a safe integer over the leverage is exact (math.ts).
  return n >= 0 ? Math.ceil(n / leverage) : NaN
}

/** orderMargin from its orderMarginUnits, for a caller that needs both: by bigints only when units is NaN. */
export function marginOfUnits(units: number, market: Market, priceTicks: number, marginLots: number, leverage: number): bigint {
  if (units === 0) return 0n
  return Number.isNaN(units) ? marginOf(notionalOf(market, priceTicks, marginLots), leverage) : BigInt(units)
}

/** Re-reserves an order's margin after its remainder changed, releasing the difference exactly.
 * The caller marks the order and account leaves dirty. */
export function resizeOrderMargin(market: Market, account: Account, order: Order): void {
  const marginLots = Math.min(order.marginLots, order.remainingLots)
  const units = orderMarginUnits(market, order.priceTicks, marginLots, order.leverage)
  const held = marginOfUnits(units, market, order.priceTicks, marginLots, order.leverage)
  releaseMargin(account, order.marginHeld, order.marginHeldUnits)
  reserveMargin(account, held, units)
  order.marginLots = marginLots
  order.marginHeld = held
  order.marginHeldUnits = units
}

/** Puts an order on its market's book and into its owner's index. */
export function restOrder(state: ChainState, book: OrderBook<Order>, account: Account, order: Order): void {
  book.insert(order)
  account.orders.add(order)
  if (order.clientOrderId !== undefined) account.ordersByClientId.setIn(order.marketId, order.clientOrderId, order.id, order.clientIdHash)
  reserveMargin(account, order.marginHeld, order.marginHeldUnits)
  // Plain orders skip the indexes: only reduce-only orders and orders with an expiry are kept there.
  if (order.reduceOnly || order.expiresAtMs !== null) indexRestingOrder(state, account, order)
  markOrderDirty(state, order)
  markLeaf(state, account)
}

/** Takes a resting order off the book (cancel, self-trade, full fill) and releases its margin. */
export function unrestOrder(state: ChainState, account: Account, order: Order): void {
  // A fully filled order (remainingLots 0) has already left the book: only a resting one is removed.
  if (order.remainingLots !== 0) state.books.get(order.marketId)!.remove(order.id)
  account.orders.delete(order.id)
  if (order.clientOrderId !== undefined) account.ordersByClientId.deleteId(order.marketId, order.clientIdHash, order.id)
  releaseMargin(account, order.marginHeld, order.marginHeldUnits)
  if (order.reduceOnly) unindexRestingOrder(state, account, order)
  order.marginHeld = 0n
  order.marginHeldUnits = 0
  order.marginLots = 0
  markOrderDirty(state, order)
  markLeaf(state, account)
}

/** Cancels a resting order with an OrderDone event. */
export function cancelRestingOrder(state: ChainState, account: Account, order: Order, reason: DoneReason, events: EventSink): void {
  const remaining = order.remainingLots
  unrestOrder(state, account, order)
  events.push({
    kind: 'Exec',
    sub_kind: 'OrderDone',
    market_id: order.marketId,
    account: account.address,
    order_id: order.id,
    reason,
    remaining_lots: remaining,
    filled_lots: order.origLots - remaining,
    client_order_id: order.clientOrderId,
  })
}

/** Credits (or debits, when negative) an account's balance. */
export function creditAccount(state: ChainState, account: Account, amount: bigint): void {
  if (amount !== 0n) account.balance += amount
  markLeaf(state, account)
}

/**
 * Settles a trade's money on a balance: credits its realized PnL and isolated-margin transfer and
 * debits its fee, passing over the terms that are zero (most fills realize nothing and move no
 * isolated margin): every bigint operation is a runtime call, 8-16 ns, and a fill made about a dozen.
 */
export function creditTrade(state: ChainState, account: Account, realizedPnl: bigint, isolatedTransfer: bigint, fee: bigint): void {
  let balance = account.balance
  if (realizedPnl !== 0n) balance += realizedPnl
  if (isolatedTransfer !== 0n) balance += isolatedTransfer
  if (fee !== 0n) balance -= fee
  account.balance = balance
  markLeaf(state, account)
}

/** Credits an address, creating a fee-only account if needed (fee recipients need not exist). */
export function credit(state: ChainState, address: string, amount: bigint): Account {
  let account = state.accounts.get(address)
  if (account === undefined) {
    account = newAccount(address, 0n, 0)
    state.accounts.set(address, account)
  }
  creditAccount(state, account, amount)
  return account
}
