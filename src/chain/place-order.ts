// PlaceOrder: validate in precedence order, plan the match (pure), check margin on the plan, then
// apply. After the margin check nothing may reject.
import { parseDecimal } from '../lib/decimal.ts'
import type { PlaceOrderPayload } from '../wire/actions.ts'
import type { PlannedFill } from './book.ts'
import type { EventSink } from './events.ts'
import { valueAccount, positionMargin, unrealizedPnl } from './margin.ts'
import { feeOf, notionalOf } from './math.ts'
import { cancelRestingOrder, credit, orderMargin, resizeOrderMargin, restOrder, unrestOrder } from './order-ops.ts'
import { applyTrade, newPosition } from './positions.ts'
import { reject, type Rejection } from './reasons.ts'
import { markDirty, orderKey, positionKey } from './state-root.ts'
import { LIMITS, type Account, type ChainState, type Market, type Order, type Position, type Side, type Tif } from './types.ts'

/** A PlaceOrder with its decimals turned into ticks and lots. */
export interface DecodedOrder {
  readonly marketId: number
  readonly side: Side
  readonly priceTicks: number
  readonly qtyLots: number
  readonly tif: Tif
  readonly reduceOnly: boolean
  readonly clientOrderId: string | undefined
}

export type Decoded<T> = { readonly ok: true; readonly value: T } | Rejection

/** Parses the payload's decimal strings at the market's precision; the edge of the chain. */
export function decodePlaceOrder(state: ChainState, p: PlaceOrderPayload): Decoded<DecodedOrder> {
  const market = state.markets.get(p.market_id)
  if (market === undefined) return reject('MarketNotFound', `market ${p.market_id} does not exist`)
  const price = parseDecimal(p.price, market.priceDecimals)
  if (!price.ok) return reject('InvalidPrice', `price ${p.price} ${price.message} (${market.symbol} price_decimals ${market.priceDecimals})`)
  const qty = parseDecimal(p.qty, market.sizeDecimals)
  if (!qty.ok) return reject('InvalidQuantity', `qty ${p.qty} ${qty.message} (${market.symbol} size_decimals ${market.sizeDecimals})`)
  if (price.value <= 0n || price.value > BigInt(Number.MAX_SAFE_INTEGER)) return reject('InvalidPrice', `price ${p.price} out of range`)
  if (qty.value <= 0n || qty.value > BigInt(Number.MAX_SAFE_INTEGER)) return reject('InvalidQuantity', `qty ${p.qty} out of range`)
  return {
    ok: true,
    value: {
      marketId: p.market_id, side: p.side, priceTicks: Number(price.value), qtyLots: Number(qty.value),
      tif: p.tif, reduceOnly: p.reduce_only, clientOrderId: p.client_order_id,
    },
  }
}

export interface PlaceContext {
  readonly height: number
}

export type PlaceOutcome = { readonly ok: true; readonly orderId: number } | Rejection

/** Default leverage of a new position: 20x or the market's maximum when lower. */
export const defaultLeverage = (market: Market) => Math.min(20, market.maxLeverage)

export function placeOrder(state: ChainState, account: Account, o: DecodedOrder, ctx: PlaceContext, events: EventSink): PlaceOutcome {
  const market = state.markets.get(o.marketId)
  if (market === undefined) return reject('MarketNotFound', `market ${o.marketId} does not exist`)
  if (market.lifecycle !== 'Active' || market.emergencyHalt) return reject('MarketNotTradable', `${market.symbol} is ${market.emergencyHalt ? 'under emergency halt' : market.lifecycle}`)
  if (market.routing === 'external_peg') return reject('QuoteNotAvailable', `${market.symbol} fills against oracle quotes and none is available`)
  if (o.qtyLots < market.minOrderLots) return reject('BelowMinOrderSize', `qty below the minimum of ${market.minOrderLots} lots`)
  const book = state.books.get(market.marketId)!
  if (o.clientOrderId !== undefined && account.ordersByClientId.has(`${o.marketId}:${o.clientOrderId}`)) {
    return reject('DuplicateClientOrderId', `client_order_id ${o.clientOrderId} is already open`)
  }
  const rests = o.tif === 'Gtc' || o.tif === 'PostOnly'
  if (rests && account.orders.size >= LIMITS.openOrdersPerAccountMax) return reject('TooManyOpenOrders', `at most ${LIMITS.openOrdersPerAccountMax} open orders`)

  const position = account.positions.get(market.marketId)
  const size = position?.sizeLots ?? 0
  let qtyLots = o.qtyLots
  if (o.reduceOnly) {
    const closable = (o.side === 'Bid' && size < 0) || (o.side === 'Ask' && size > 0) ? Math.abs(size) : 0
    if (closable === 0 || (o.tif === 'Fok' && closable < qtyLots)) return reject('ReduceOnlyWouldOpenOrFlip', `position ${size} lots cannot absorb a reduce-only ${o.side} of ${qtyLots}`)
    // Spec §3.2: the excess of a reduce-only order over the closable size does not rest.
    qtyLots = Math.min(qtyLots, closable)
  }
  if (o.tif === 'PostOnly' && book.wouldCross(o.side, o.priceTicks)) return reject('PostOnlyWouldCross', `a post-only ${o.side} at ${o.priceTicks} ticks would cross`)

  const plan = book.planMatch(o.side, account.address, o.priceTicks, qtyLots, LIMITS.fillsPerOrderMax)
  if (o.tif === 'Fok' && plan.filledLots < qtyLots) return reject('FokRejected', `only ${plan.filledLots} of ${qtyLots} lots fillable at once`)
  const notionals = new Array<bigint>(plan.fills.length)
  for (let i = 0; i < plan.fills.length; i++) {
    const f = plan.fills[i]!
    const n = notionalOf(market, f.priceTicks, f.lots)
    if (n === 0n) return reject('DustNotionalFill', `a fill of ${f.lots} lots at ${f.priceTicks} ticks has zero notional`)
    notionals[i] = n
  }
  const restLots = rests ? qtyLots - plan.filledLots : 0
  if (restLots > 0 && notionalOf(market, o.priceTicks, restLots) === 0n) return reject('DustNotionalFill', 'the resting remainder has zero notional')

  const leverage = position?.leverage ?? defaultLeverage(market)
  const after = simulateTaker(market, position, o.side, plan.fills, notionals, leverage)
  // Lots of the remainder that would open exposure (the rest closes what the fills left).
  const marginLots = o.reduceOnly ? 0 : openingLots(o.side, after.position.sizeLots, restLots)
  const restMargin = orderMargin(market, o.priceTicks, marginLots, leverage)
  const increases = Math.abs(after.position.sizeLots) > Math.abs(size) || Math.sign(after.position.sizeLots) * Math.sign(size) < 0
  if (!o.reduceOnly && (increases || restMargin > 0n)) {
    const v = valueAccount(state, account)
    const before = position === undefined ? { margin: 0n, upnl: 0n } : { margin: positionMargin(market, position), upnl: unrealizedPnl(market, position) }
    const tradingAfter = v.crossTradingAvailable
      + after.realizedPnl - after.fees + (after.upnl - before.upnl)
      - (after.margin - before.margin) - restMargin
    if (tradingAfter < 0n) return reject('InsufficientMargin', `needs ${-tradingAfter} more SCALE_6 of available margin`)
  }

  // After this point the order must succeed: no more rejections.
  const orderId = state.nextOrderId++
  markDirty(state, 'x')
  events.push({
    kind: 'Exec', sub_kind: 'OrderAccepted', market_id: market.marketId, account: account.address, order_id: orderId,
    side: o.side, price_ticks: o.priceTicks, qty_lots: o.qtyLots, tif: o.tif, reduce_only: o.reduceOnly, client_order_id: o.clientOrderId,
  })
  for (const maker of plan.selfTradeMakers) cancelRestingOrder(state, account, maker, 'SelfTradeCancelled', events)
  for (let i = 0; i < plan.fills.length; i++) executeFill(state, market, account, orderId, o.side, plan.fills[i]!, notionals[i]!, events)

  if (restLots > 0) {
    const order: Order = {
      id: orderId, owner: account.address, side: o.side, priceTicks: o.priceTicks, remainingLots: restLots,
      marketId: market.marketId, tif: o.tif, reduceOnly: o.reduceOnly, clientOrderId: o.clientOrderId, origLots: o.qtyLots,
      marginLots, marginHeld: restMargin, leverage, placedHeight: ctx.height,
    }
    restOrder(state, market, account, order)
    events.push({
      kind: 'Exec', sub_kind: 'OrderResting', market_id: market.marketId, account: account.address, order_id: orderId,
      side: o.side, price_ticks: o.priceTicks, qty_lots: o.qtyLots, remaining_lots: restLots, tif: o.tif, reduce_only: o.reduceOnly,
      client_order_id: o.clientOrderId,
    })
  } else {
    const unfilled = o.qtyLots - plan.filledLots
    events.push({
      kind: 'Exec', sub_kind: 'OrderDone', market_id: market.marketId, account: account.address, order_id: orderId,
      reason: unfilled === 0 ? 'Filled' : 'IocExpired', remaining_lots: unfilled, filled_lots: plan.filledLots, client_order_id: o.clientOrderId,
    })
  }
  return { ok: true, orderId }
}

/** Lots of a resting remainder on side that add exposure, given the position size after fills. */
function openingLots(side: Side, sizeAfter: number, restLots: number): number {
  const reducible = (side === 'Bid' && sizeAfter < 0) || (side === 'Ask' && sizeAfter > 0) ? Math.abs(sizeAfter) : 0
  return Math.max(0, restLots - reducible)
}

interface TakerSimulation {
  readonly position: Position
  readonly realizedPnl: bigint
  readonly fees: bigint
  readonly margin: bigint
  readonly upnl: bigint
}

/** The taker's position, PnL, fees and margin if the planned fills happen. Pure. */
function simulateTaker(market: Market, position: Position | undefined, side: Side, fills: readonly PlannedFill<Order>[], notionals: readonly bigint[], leverage: number): TakerSimulation {
  const sim: Position = position === undefined ? newPosition(market.marketId, leverage) : { ...position }
  let realizedPnl = 0n
  let fees = 0n
  for (let i = 0; i < fills.length; i++) {
    const lots = fills[i]!.lots
    realizedPnl += applyTrade(sim, side === 'Bid' ? lots : -lots, notionals[i]!).realizedPnl
    fees += feeOf(notionals[i]!, market.takerFeeBps)
  }
  return { position: sim, realizedPnl, fees, margin: positionMargin(market, sim), upnl: unrealizedPnl(market, sim) }
}

/** Executes one planned fill: positions, balances, fees, the maker's order, open interest, event. */
function executeFill(state: ChainState, market: Market, taker: Account, takerOrderId: number, takerSide: Side, fill: PlannedFill<Order>, notional: bigint, events: EventSink): void {
  const makerOrder = fill.maker
  const maker = state.accounts.get(makerOrder.owner)!
  const takerFee = feeOf(notional, market.takerFeeBps)
  const makerFee = feeOf(notional, market.makerFeeBps)
  const takerPos = positionFor(state, taker, market)
  const makerPos = positionFor(state, maker, market)
  const longBefore = Math.max(0, takerPos.sizeLots) + Math.max(0, makerPos.sizeLots)
  const t = applyTrade(takerPos, takerSide === 'Bid' ? fill.lots : -fill.lots, notional)
  const m = applyTrade(makerPos, takerSide === 'Bid' ? -fill.lots : fill.lots, notional)
  market.openInterestLots += Math.max(0, takerPos.sizeLots) + Math.max(0, makerPos.sizeLots) - longBefore
  market.lastTradeTicks = fill.priceTicks
  markDirty(state, `m:${market.marketId}`)
  settlePosition(taker, takerPos)
  settlePosition(maker, makerPos)
  credit(state, taker.address, t.realizedPnl - takerFee)
  credit(state, maker.address, m.realizedPnl - makerFee)
  credit(state, market.feeRecipient, takerFee + makerFee)

  const book = state.books.get(market.marketId)!
  book.fill(makerOrder.id, fill.lots)
  markDirty(state, orderKey(market.marketId, makerOrder.id))
  events.push({
    kind: 'Exec', sub_kind: 'Filled', market_id: market.marketId, account: taker.address,
    taker: taker.address, maker: maker.address, taker_order_id: takerOrderId, maker_order_id: makerOrder.id, taker_side: takerSide,
    price_ticks: fill.priceTicks, qty_lots: fill.lots, notional, taker_fee: takerFee, maker_fee: makerFee,
    taker_realized_pnl: t.realizedPnl, maker_realized_pnl: m.realizedPnl,
    taker_size_before: t.sizeBefore, taker_size_after: t.sizeAfter, maker_size_before: m.sizeBefore, maker_size_after: m.sizeAfter,
    maker_remaining_lots: makerOrder.remainingLots,
    taker_source_trigger_id: null, maker_source_trigger_id: null, taker_source_tx_hash: null, maker_source_tx_hash: null,
  })
  if (makerOrder.remainingLots === 0) {
    unrestOrder(state, maker, makerOrder)
    events.push({
      kind: 'Exec', sub_kind: 'OrderDone', market_id: market.marketId, account: maker.address, order_id: makerOrder.id,
      reason: 'Filled', remaining_lots: 0, filled_lots: makerOrder.origLots, client_order_id: makerOrder.clientOrderId,
    })
  } else {
    resizeOrderMargin(market, maker, makerOrder)
    markDirty(state, `a:${maker.address}`)
  }
}

/** The account's position in market, created flat at the default leverage when missing. */
function positionFor(state: ChainState, account: Account, market: Market): Position {
  let pos = account.positions.get(market.marketId)
  if (pos === undefined) {
    pos = newPosition(market.marketId, defaultLeverage(market))
    account.positions.set(market.marketId, pos)
  }
  markDirty(state, positionKey(account.address, market.marketId))
  return pos
}

/** A flat position is removed; its realized PnL already sits in the balance. */
function settlePosition(account: Account, pos: Position): void {
  if (pos.sizeLots === 0) account.positions.delete(pos.marketId)
}
