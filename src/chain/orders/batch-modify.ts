// BatchModify: up to BATCH_LIMITS.batchModifiesMax amends of resting orders, applied in order, each
// rejected or applied on its own as in BatchPlaceOrder (BatchItemRejected with index and reason).
//
// One amend names a resting order (order_id or client_order_id) and any of a new price, a new
// total quantity (`qty` counts the lots already filled) and a new time in force:
// - qty not above the filled lots: the order ends, OrderDone AmendClampedAtFilled
//   (docs/orders.md#amends);
// - only a lower qty (price and TIF unchanged): amended in place, keeping its time priority; its
//   margin is re-reserved for the smaller remainder; OrderAccepted then OrderResting with the same
//   order id confirm the re-rest (docs/orders.md#order-lifecycle: `accepted` confirms the intent);
// - a price or TIF change, or a higher qty: cancel-plus-replace. The new order (a new order id,
//   same side, reduce-only flag, client id and expiry, quantity = new total - filled) is checked
//   as a PlaceOrder with the old one counted as gone; if it is rejected the old order stays as it
//   was. Otherwise OrderDone Replaced, then OrderAccepted and fills / OrderResting of the new order,
//   which may fill at once when it crosses.
import { type ActionContext, type HandlerPayloads, type ModifyInput, OK, type Outcome } from '../core/action-context.ts'
import type { EventSink } from '../core/events.ts'
import { isDustNotional } from '../core/math.ts'
import { reject } from '../core/reasons.ts'
import type { Account, ChainState, Market, Order } from '../core/types.ts'
import { markLeaf, markOrderDirty } from '../state/state-root.ts'
import { decodeLots, decodeTicks, isUnits } from '../triggers/trigger-decode.ts'
import { batchItemRejected, envelopePlaceContext } from './batch-place-order.ts'
import { ORDER_LIMITS } from './order-indexes.ts'
import { cancelRestingOrder, resizeOrderMargin } from './order-ops.ts'
import type { PlaceContext } from './order-types.ts'
import { placeOrder } from './place-order.ts'

/** Applies a BatchModify; always accepted (item outcomes are events). */
export function batchModify(ctx: ActionContext, p: HandlerPayloads['BatchModify']): Outcome {
  const placeCtx = envelopePlaceContext(ctx)
  // Bounded by the schema's maxItems, and again here.
  const count = Math.min(p.modifies.length, ORDER_LIMITS.batchModifiesMax)
  for (let i = 0; i < count; i++) {
    const item = p.modifies[i]!
    const out = modifyOrder(ctx.state, ctx.account, item, placeCtx, ctx.events)
    if (!out.ok) ctx.events.push(batchItemRejected(ctx, 'BatchModify', i, item.market_id, out))
  }
  return OK
}

/** Applies one amend to one of account's resting orders; a rejection changes nothing. */
export function modifyOrder(state: ChainState, account: Account, m: ModifyInput, ctx: PlaceContext, events: EventSink): Outcome {
  const market = state.markets.get(m.market_id)
  if (market === undefined) return reject('MarketNotFound', `market ${m.market_id} does not exist`)
  if ((m.order_id === undefined) === (m.client_order_id === undefined))
    return reject('InvalidModify', 'give exactly one of order_id and client_order_id')
  if (m.price === undefined && m.qty === undefined && m.tif === undefined)
    return reject('InvalidModify', 'give at least one of price, qty and tif')
  const orderId =
    m.order_id ?? (m.client_order_id === undefined ? undefined : account.ordersByClientId.getIn(m.market_id, m.client_order_id))
  const order = orderId === undefined ? undefined : account.orders.get(orderId)
  if (order === undefined || order.marketId !== market.marketId) {
    const what = m.order_id !== undefined ? `order ${m.order_id}` : `client_order_id ${m.client_order_id}`
    return reject('OrderNotFound', `${what} is not an open order of ${account.address} in ${market.symbol}`)
  }
  const price = m.price === undefined ? undefined : decodeTicks(m.price, market, 'price', m.edge_price)
  if (!isUnits(price)) return price
  const qty = m.qty === undefined ? undefined : decodeLots(m.qty, market, 'qty', m.edge_qty)
  if (!isUnits(qty)) return qty
  const priceTicks = price ?? order.priceTicks
  const qtyLots = qty ?? order.origLots
  const tif = m.tif ?? order.tif
  const filled = order.origLots - order.remainingLots

  if (qtyLots <= filled) {
    // After this point the amend must succeed: the order ends at what it filled.
    cancelRestingOrder(state, account, order, 'AmendClampedAtFilled', events)
    return OK
  }
  const remaining = qtyLots - filled
  if (priceTicks === order.priceTicks && tif === order.tif && remaining <= order.remainingLots) {
    if (remaining === order.remainingLots) return reject('InvalidModify', `order ${order.id} already has price, qty and tif as given`)
    if (qtyLots < market.minOrderLots) return reject('BelowMinOrderSize', `qty below the minimum of ${market.minOrderLots} lots`)
    if (isDustNotional(market, priceTicks, remaining)) return reject('DustNotionalFill', 'the amended remainder has zero notional')
    // After this point the amend must succeed.
    amendDown(state, market, account, order, qtyLots, remaining, events)
    return OK
  }
  const placed = placeOrder(
    state,
    account,
    {
      marketId: market.marketId,
      side: order.side,
      priceTicks,
      qtyLots: remaining,
      tif,
      reduceOnly: order.reduceOnly,
      clientOrderId: order.clientOrderId,
      expiresAtMs: order.expiresAtMs ?? undefined,
    },
    ctx,
    events,
    order,
  )
  return typeof placed === 'number' ? OK : placed
}

/** Lowers a resting order's quantity in place, keeping its time priority, and re-reserves its margin. */
function amendDown(
  state: ChainState,
  market: Market,
  account: Account,
  order: Order,
  qtyLots: number,
  remaining: number,
  events: EventSink,
): void {
  state.books.get(market.marketId)!.setRemaining(order.id, remaining)
  order.origLots = qtyLots
  // The opening lots shrink with the remainder (as after a partial fill), and the margin with them.
  resizeOrderMargin(market, account, order)
  markOrderDirty(state, order)
  markLeaf(state, account)
  // Field by field, in the events' field order (no spread of a common part: slow on this path; no figure logged).
  events.push({
    kind: 'Exec',
    sub_kind: 'OrderAccepted',
    market_id: market.marketId,
    account: account.address,
    order_id: order.id,
    side: order.side,
    price_ticks: order.priceTicks,
    qty_lots: qtyLots,
    tif: order.tif,
    reduce_only: order.reduceOnly,
    client_order_id: order.clientOrderId,
  })
  events.push({
    kind: 'Exec',
    sub_kind: 'OrderResting',
    market_id: market.marketId,
    account: account.address,
    order_id: order.id,
    side: order.side,
    price_ticks: order.priceTicks,
    qty_lots: qtyLots,
    tif: order.tif,
    reduce_only: order.reduceOnly,
    client_order_id: order.clientOrderId,
    remaining_lots: remaining,
  })
}
