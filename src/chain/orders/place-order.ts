// PlaceOrder: validate in precedence order, plan the match (pure), check margin on the plan, then
// apply. After the margin check nothing may reject.
import { decimalUnits, parseDecimal } from '../../lib/decimal.ts'
import type { MatchPlan, OrderBook, PlannedFill } from '../book/book.ts'
import type { PlaceOrderInput } from '../core/action-context.ts'
import type { EventSink } from '../core/events.ts'
import { feeOf, isDustNotional, isSafe, notionalOf } from '../core/math.ts'
import { type Rejection, reject } from '../core/reasons.ts'
import { type Account, type ChainState, LIMITS, type Market, type Order, type Position, type Side } from '../core/types.ts'
import { collectFee } from '../funds/fees.ts'
import { isFrozen } from '../funds/funds-state.ts'
import { canAfford, crossTradingAvailable, positionMargin, unrealizedPnl } from '../margin/margin.ts'
import { checkOrderMargin, insufficientMargin } from '../margin/margin-check.ts'
import { applyTrade, defaultLeverage, positionFor, positionSettings, settlePosition, type TradeResult } from '../margin/positions.ts'
import { placePegOrder } from '../markets/external-peg.ts'
import { checkTradable } from '../markets/tradable.ts'
import { markLeaf, markOrderDirty } from '../state/state-root.ts'
import { clientIdHash } from './client-ids.ts'
import { cancelRestingOrder, creditTrade, marginOfUnits, orderMarginUnits, resizeOrderMargin, restOrder, unrestOrder } from './order-ops.ts'
import type { DecodedOrder, PlaceContext, PlaceOutcome } from './order-types.ts'
import {
  clampMakersAfterMatch,
  clampReduceOnlySide,
  closableLots,
  type ReduceOnlyCap,
  reduceOnlyCapFor,
  restingReduceOnlyLots,
} from './reduce-only.ts'

/** Whether a decode gave a rejection rather than its value (a DecodedOrder has no `ok`). */
export const isRejection = (d: DecodedOrder | Rejection): d is Rejection => (d as Rejection).ok === false

/**
 * Parses the payload's decimal strings at the market's precision, the edge of the chain: the order,
 * or why it was rejected (told apart by isRejection). Decimals the edge packed are read from their
 * packed fields (lib/decimal.ts decimalUnits).
 */
export function decodePlaceOrder(state: ChainState, p: PlaceOrderInput): DecodedOrder | Rejection {
  const market = state.markets.get(p.market_id)
  if (market === undefined) return reject('MarketNotFound', `market ${p.market_id} does not exist`)
  const priceTicks = decimalUnits(p.price, market.priceDecimals, p.edge_price)
  const qtyLots = decimalUnits(p.qty, market.sizeDecimals, p.edge_qty)
  if (priceTicks > 0 && qtyLots > 0) {
    return {
      marketId: p.market_id,
      side: p.side,
      priceTicks,
      qtyLots,
      tif: p.tif,
      reduceOnly: p.reduce_only,
      clientOrderId: p.client_order_id,
      expiresAtMs: p.expires_at_ms,
    }
  }
  // Anything but two decimals that pack (lib/decimal.ts packDecimal): the parser decides, and words any error.
  const price = parseDecimal(p.price, market.priceDecimals)
  if (!price.ok)
    return reject('InvalidPrice', `price ${p.price} ${price.message} (${market.symbol} price_decimals ${market.priceDecimals})`)
  const qty = parseDecimal(p.qty, market.sizeDecimals)
  if (!qty.ok) return reject('InvalidQuantity', `qty ${p.qty} ${qty.message} (${market.symbol} size_decimals ${market.sizeDecimals})`)
  if (price.value <= 0n || price.value > BigInt(Number.MAX_SAFE_INTEGER)) return reject('InvalidPrice', `price ${p.price} out of range`)
  if (qty.value <= 0n || qty.value > BigInt(Number.MAX_SAFE_INTEGER)) return reject('InvalidQuantity', `qty ${p.qty} out of range`)
  return {
    marketId: p.market_id,
    side: p.side,
    priceTicks: Number(price.value),
    qtyLots: Number(qty.value),
    tif: p.tif,
    reduceOnly: p.reduce_only,
    clientOrderId: p.client_order_id,
    expiresAtMs: p.expires_at_ms,
  }
}

/** The plan of an order that does not cross. */
const NO_MATCH: MatchPlan<Order> = Object.freeze({ fills: [], filledLots: 0, selfTradeMakers: [], truncated: false })
const NO_NOTIONALS: bigint[] = []

/**
 * Places a decoded order for account: checks in precedence order (market, size, client id,
 * reduce-only, post-only, FOK depth, dust, margin), then matches it against the book, cancelling
 * the account's own makers it meets, and rests what a Gtc or PostOnly order has left. Emits
 * OrderAccepted, then fills and done/resting events, into `events`. Gives the new order's id, or
 * why it was rejected (nothing changed then).
 *
 * `replaced` is a resting order of the account that this one replaces (BatchModify's
 * cancel-plus-replace): checked as if already gone, and cancelled with reason Replaced once the
 * new order must succeed. An argument rather than a field of ctx, so an envelope's orders and its
 * amends share the envelope's one PlaceContext (no figure logged).
 */
export function placeOrder(
  state: ChainState,
  account: Account,
  o: DecodedOrder,
  ctx: PlaceContext,
  events: EventSink,
  replaced?: Order,
): PlaceOutcome {
  const market = state.markets.get(o.marketId)
  if (market === undefined) return reject('MarketNotFound', `market ${o.marketId} does not exist`)
  // Markets area: Active takes every order, DelistPending only reduce-only ones (tradable.ts).
  const tradable = checkTradable(market, o.reduceOnly)
  if (!tradable.ok) return tradable
  // The frozen set is almost always empty: its size first, so the lookup is no call per order (no figure logged).
  if (!o.reduceOnly && state.funds.frozen.size !== 0 && isFrozen(state, account.address))
    return reject('AccountFrozen', `${account.address} is frozen: only reduce-only orders and cancels`)
  if (o.qtyLots < market.minOrderLots) return reject('BelowMinOrderSize', `qty below the minimum of ${market.minOrderLots} lots`)
  if (o.expiresAtMs !== undefined && o.expiresAtMs <= ctx.timestampMs)
    return reject('OrderExpired', `expires_at_ms ${o.expiresAtMs} is not after block time ${ctx.timestampMs}`)
  // Markets area: an external-peg market fills against its oracle quote, not a book (external-peg.ts).
  if (market.routing === 'external_peg') return placePegOrder(state, account, market, o, ctx, events, replaced)
  const book = state.books.get(market.marketId)!
  // Hashed once, while the client id's string is fresh (Order.clientIdHash).
  const cloidHash = o.clientOrderId === undefined ? 0 : clientIdHash(o.marketId, o.clientOrderId)
  if (o.clientOrderId !== undefined) {
    const holder = account.ordersByClientId.getIn(o.marketId, o.clientOrderId, cloidHash)
    if (holder !== undefined && holder !== replaced?.id)
      return reject('DuplicateClientOrderId', `client_order_id ${o.clientOrderId} is already open`)
  }
  const rests = o.tif === 'Gtc' || o.tif === 'PostOnly'
  if (rests && account.orders.size - (replaced === undefined ? 0 : 1) >= LIMITS.openOrdersPerAccountMax)
    return reject('TooManyOpenOrders', `at most ${LIMITS.openOrdersPerAccountMax} open orders`)

  const position = account.positions.get(market.marketId)
  const size = position?.sizeLots ?? 0
  let qtyLots = o.qtyLots
  // Reduce-only: the closable lots that the account's other resting reduce-only orders on this side leave free.
  let reduceOnlyFree = 0
  if (o.reduceOnly) {
    const closable = closableLots(size, o.side)
    if (closable === 0 || (o.tif === 'Fok' && closable < qtyLots))
      return reject('ReduceOnlyWouldOpenOrFlip', `position ${size} lots cannot absorb a reduce-only ${o.side} of ${qtyLots}`)
    // docs/orders.md#reduce-only-orders: the excess of a reduce-only order over the closable size
    // does not rest.
    qtyLots = Math.min(qtyLots, closable)
    reduceOnlyFree =
      account.reduceOnlyCount === 0 ? closable : closable - restingReduceOnlyLots(state, market.marketId, o.side, account.address, replaced)
  }
  // An order that does not reach the opposite best can neither fill nor meet its own orders.
  const crosses = book.wouldCross(o.side, o.priceTicks)
  if (o.tif === 'PostOnly' && crosses) return reject('PostOnlyWouldCross', `a post-only ${o.side} at ${o.priceTicks} ticks would cross`)

  const makerSide: Side = o.side === 'Bid' ? 'Ask' : 'Bid'
  // Reduce-only makers fill at most what their owners can still close (undefined: none on that side).
  const reduceOnlyCap = crosses ? reduceOnlyCapFor(state, market.marketId, makerSide) : undefined
  const plan = crosses
    ? book.planMatch(o.side, account.address, o.priceTicks, qtyLots, LIMITS.fillsPerOrderMax, reduceOnlyCap?.cap)
    : NO_MATCH
  if (o.tif === 'Fok' && plan.filledLots < qtyLots)
    return reject('FokRejected', `only ${plan.filledLots} of ${qtyLots} lots fillable at once`)
  const notionals = plan.fills.length === 0 ? NO_NOTIONALS : new Array<bigint>(plan.fills.length)
  for (let i = 0; i < plan.fills.length; i++) {
    const f = plan.fills[i]!
    const n = notionalOf(market, f.priceTicks, f.lots)
    if (n === 0n) return reject('DustNotionalFill', `a fill of ${f.lots} lots at ${f.priceTicks} ticks has zero notional`)
    notionals[i] = n
  }
  // A plan cut at fillsPerOrderMax stops before makers that would still match: resting the
  // remainder would cross the book, so it is cut like an IOC's.
  let restLots = rests && !plan.truncated ? qtyLots - plan.filledLots : 0
  // A reduce-only remainder rests within what its own fills leave free (the newest order is clamped first).
  if (o.reduceOnly && restLots > reduceOnlyFree - plan.filledLots) restLots = Math.max(0, reduceOnlyFree - plan.filledLots)
  if (restLots > 0 && isDustNotional(market, o.priceTicks, restLots))
    return reject('DustNotionalFill', 'the resting remainder has zero notional')

  // A new position opens with the account's leverage and margin mode for the market (positions.ts
  // positionSettings, read here without building its object).
  const setting = position ?? account.settings.get(market.marketId)
  const leverage = setting === undefined ? defaultLeverage(market) : setting.leverage
  const marginMode = setting === undefined ? 'Cross' : setting.marginMode
  // Without fills the position, its margin and its uPnL stay as they are (the common resting case).
  const after = plan.fills.length === 0 ? undefined : simulateTaker(account, market, position, o.side, plan.fills, notionals)
  const sizeAfter = after === undefined ? size : after.position.sizeLots
  // Lots of the remainder that would open exposure (the rest closes what the fills left).
  const marginLots = o.reduceOnly ? 0 : openingLots(o.side, sizeAfter, restLots)
  const restMarginUnits = orderMarginUnits(market, o.priceTicks, marginLots, leverage)
  const restMargin = marginOfUnits(restMarginUnits, market, o.priceTicks, marginLots, leverage)
  // Grows, or flips sign (plain comparisons: Math.sign would be a call per order; no figure logged).
  const increases = Math.abs(sizeAfter) > Math.abs(size) || (sizeAfter > 0 && size < 0) || (sizeAfter < 0 && size > 0)
  // An amend's cost is the margin beyond what the replaced order holds, from the exact numbers when
  // they are safe: the replaced order's bigint is a cold cell (as Order.marginHeldUnits; no figure of its own).
  const marginCost = replaced === undefined ? restMargin : marginBeyond(restMargin, restMarginUnits, replaced)
  if (after === undefined && marginMode === 'Cross' && !o.reduceOnly && !increases) {
    // The common resting order: checkOrderMargin's no-fill Cross case, without building its case object.
    if (marginCost > 0n && !canAfford(state, account, marginCost))
      return insufficientMargin(crossTradingAvailable(state, account) - marginCost, 'cross_trading_available')
  } else {
    const short = checkOrderMargin({
      state,
      account,
      market,
      position,
      marginMode,
      reduceOnly: o.reduceOnly,
      increases,
      restMargin: marginCost,
      after,
    })
    if (short !== undefined) return short
  }

  // After this point the order must succeed: no more rejections.
  if (replaced !== undefined) cancelRestingOrder(state, account, replaced, 'Replaced', events)
  const orderId = state.nextOrderId++
  markLeaf(state, state.exchangeLeaf)
  events.push({
    kind: 'Exec',
    sub_kind: 'OrderAccepted',
    market_id: market.marketId,
    account: account.address,
    order_id: orderId,
    side: o.side,
    price_ticks: o.priceTicks,
    qty_lots: o.qtyLots,
    tif: o.tif,
    reduce_only: o.reduceOnly,
    client_order_id: o.clientOrderId,
  })
  for (const maker of plan.selfTradeMakers) cancelRestingOrder(state, account, maker, 'SelfTradeCancelled', events)
  // Fills are applied out of line (applyFills): most orders rest without any, and placeOrder stays small (no figure logged).
  if (after !== undefined) applyFills(state, market, book, account, orderId, o.side, plan, notionals, after, reduceOnlyCap, ctx, events)

  if (restLots > 0) {
    const order: Order = {
      id: orderId,
      owner: account.address,
      side: o.side,
      priceTicks: o.priceTicks,
      remainingLots: restLots,
      marketId: market.marketId,
      tif: o.tif,
      reduceOnly: o.reduceOnly,
      clientOrderId: o.clientOrderId,
      clientIdHash: cloidHash,
      origLots: o.qtyLots,
      marginLots,
      marginHeld: restMargin,
      marginHeldUnits: restMarginUnits,
      leverage,
      placedHeight: ctx.height,
      sourceTxHash: ctx.txHash,
      sourceTriggerId: ctx.sourceTriggerId,
      expiresAtMs: o.expiresAtMs ?? null,
      dirtyIn: -1,
    }
    restOrder(state, book, account, order)
    events.push({
      kind: 'Exec',
      sub_kind: 'OrderResting',
      market_id: market.marketId,
      account: account.address,
      order_id: orderId,
      side: o.side,
      price_ticks: o.priceTicks,
      qty_lots: o.qtyLots,
      remaining_lots: restLots,
      tif: o.tif,
      reduce_only: o.reduceOnly,
      client_order_id: o.clientOrderId,
    })
  } else {
    const unfilled = o.qtyLots - plan.filledLots
    // A resting kind ends here with lots unfilled only when the fill limit or reduce-only clamping cut them off.
    const reason = unfilled === 0 ? 'Filled' : plan.truncated ? 'FillLimitReached' : rests ? 'ReduceOnlyClamped' : 'IocExpired'
    events.push({
      kind: 'Exec',
      sub_kind: 'OrderDone',
      market_id: market.marketId,
      account: account.address,
      order_id: orderId,
      reason,
      remaining_lots: unfilled,
      filled_lots: plan.filledLots,
      client_order_id: o.clientOrderId,
    })
  }
  return orderId
}

/**
 * Applies a taker order's planned fills: each maker's side (executeFill), then the taker's side
 * as the simulation computed it, once for the whole order; then clamps the resting reduce-only
 * orders the fills no longer fit, before any remainder rests.
 */
function applyFills(
  state: ChainState,
  market: Market,
  book: OrderBook<Order>,
  account: Account,
  orderId: number,
  side: Side,
  plan: MatchPlan<Order>,
  notionals: readonly bigint[],
  after: TakerSimulation,
  reduceOnlyCap: ReduceOnlyCap | undefined,
  ctx: PlaceContext,
  events: EventSink,
): void {
  for (let i = 0; i < plan.fills.length; i++) {
    executeFill(state, market, book, account, orderId, side, plan.fills[i]!, notionals[i]!, after.trades[i]!, after.fees[i]!, ctx, events)
  }
  // The taker's side is the simulation's, applied once: its position, its PnL net of fees, and
  // the fees, credited for the whole order. No balance is read between fills, so the sums are
  // what crediting fill by fill would leave.
  const pos = positionFor(state, account, market)
  pos.sizeLots = after.position.sizeLots
  pos.costBasis = after.position.costBasis
  pos.realizedPnl = after.position.realizedPnl
  pos.leverage = after.position.leverage
  pos.marginMode = after.position.marginMode
  pos.isolatedMargin = after.position.isolatedMargin
  settlePosition(state, account, pos)
  creditTrade(state, account, after.realizedPnl, after.isolatedTransfer, after.totalFees)
  collectFee(state, market, account, after.totalFees, events)
  // Resting reduce-only orders must still fit the positions the fills left (reduce-only.ts),
  // before a remainder rests: that also takes capped makers off the book.
  if (account.reduceOnlyCount > 0) clampReduceOnlySide(state, account, market.marketId, side, events)
  if (reduceOnlyCap !== undefined) clampMakersAfterMatch(state, reduceOnlyCap, market.marketId, side === 'Bid' ? 'Ask' : 'Bid', events)
}

/** restMargin - replaced.marginHeld, by the numbers when both are safe integers. */
function marginBeyond(restMargin: bigint, restMarginUnits: number, replaced: Order): bigint {
  const units = restMarginUnits - replaced.marginHeldUnits
  return isSafe(units) ? BigInt(units) : restMargin - replaced.marginHeld
}

/** Lots of a resting remainder on side that add exposure, given the position size after fills. */
function openingLots(side: Side, sizeAfter: number, restLots: number): number {
  const reducible = (side === 'Bid' && sizeAfter < 0) || (side === 'Ask' && sizeAfter > 0) ? Math.abs(sizeAfter) : 0
  return Math.max(0, restLots - reducible)
}

interface TakerSimulation {
  /** The taker's position after the fills. */
  readonly position: Position
  /** Per fill: the taker's side of the trade and its fee. */
  readonly trades: TradeResult[]
  readonly fees: bigint[]
  readonly realizedPnl: bigint
  readonly totalFees: bigint
  /** Sum of the trades' isolated-margin transfers to the balance (positions.ts). */
  readonly isolatedTransfer: bigint
  readonly margin: bigint
  readonly upnl: bigint
}

/** The taker's position, PnL, fees and margin if the planned fills happen. Pure. */
function simulateTaker(
  account: Account,
  market: Market,
  position: Position | undefined,
  side: Side,
  fills: readonly PlannedFill<Order>[],
  notionals: readonly bigint[],
): TakerSimulation {
  // A scratch copy of the position (or a new flat one), never put in the state: the caller copies
  // its fields over. So it needs no leaf key (building one costs a string per taker order).
  let sim: Position
  if (position === undefined) {
    const fresh = positionSettings(account, market)
    sim = {
      marketId: market.marketId,
      sizeLots: 0,
      costBasis: 0n,
      leverage: fresh.leverage,
      realizedPnl: 0n,
      marginMode: fresh.marginMode,
      isolatedMargin: 0n,
      leafKey: '',
      dirtyIn: -1,
    }
  } else {
    // Field by field (object spread is slow on this path; no figure logged).
    sim = {
      marketId: position.marketId,
      sizeLots: position.sizeLots,
      costBasis: position.costBasis,
      leverage: position.leverage,
      realizedPnl: position.realizedPnl,
      marginMode: position.marginMode,
      isolatedMargin: position.isolatedMargin,
      leafKey: '',
      dirtyIn: -1,
    }
  }
  const trades: TradeResult[] = new Array(fills.length)
  const fees: bigint[] = new Array(fills.length)
  let realizedPnl = 0n
  let totalFees = 0n
  let isolatedTransfer = 0n
  for (let i = 0; i < fills.length; i++) {
    const lots = fills[i]!.lots
    const t = applyTrade(sim, side === 'Bid' ? lots : -lots, notionals[i]!)
    if (sim.sizeLots === 0) {
      // As in execution fill by fill: a flat position is removed, and the next fill opens a new one.
      // It opens with the account's setting (positions.ts positionFor).
      const fresh = positionSettings(account, market)
      sim.realizedPnl = 0n
      sim.leverage = fresh.leverage
      sim.marginMode = fresh.marginMode
    }
    const fee = feeOf(notionals[i]!, market.takerFeeBps)
    trades[i] = t
    fees[i] = fee
    if (t.realizedPnl !== 0n) realizedPnl += t.realizedPnl
    if (t.isolatedTransfer !== 0n) isolatedTransfer += t.isolatedTransfer
    totalFees += fee
  }
  return {
    position: sim,
    trades,
    fees,
    realizedPnl,
    totalFees,
    isolatedTransfer,
    margin: positionMargin(market, sim),
    upnl: unrealizedPnl(market, sim),
  }
}

/**
 * Executes one planned fill on the maker's side: its position, balance and order, open interest,
 * the event. The taker's side of the trade was computed by simulateTaker; the caller applies it.
 */
function executeFill(
  state: ChainState,
  market: Market,
  book: OrderBook<Order>,
  taker: Account,
  takerOrderId: number,
  takerSide: Side,
  fill: PlannedFill<Order>,
  notional: bigint,
  t: TradeResult,
  takerFee: bigint,
  ctx: PlaceContext,
  events: EventSink,
): void {
  const makerOrder = fill.maker
  const maker = state.accounts.get(makerOrder.owner)!
  const makerFee = feeOf(notional, market.makerFeeBps)
  const makerPos = positionFor(state, maker, market)
  const m = applyTrade(makerPos, takerSide === 'Bid' ? -fill.lots : fill.lots, notional)
  market.openInterestLots += Math.max(0, t.sizeAfter) + Math.max(0, m.sizeAfter) - Math.max(0, t.sizeBefore) - Math.max(0, m.sizeBefore)
  market.lastTradeTicks = fill.priceTicks
  markLeaf(state, market)
  settlePosition(state, maker, makerPos)
  creditTrade(state, maker, m.realizedPnl, m.isolatedTransfer, makerFee)
  collectFee(state, market, maker, makerFee, events)

  book.fill(makerOrder.id, fill.lots)
  markOrderDirty(state, makerOrder)
  events.push({
    kind: 'Exec',
    sub_kind: 'Filled',
    market_id: market.marketId,
    account: taker.address,
    taker: taker.address,
    maker: maker.address,
    taker_order_id: takerOrderId,
    maker_order_id: makerOrder.id,
    taker_side: takerSide,
    price_ticks: fill.priceTicks,
    qty_lots: fill.lots,
    notional,
    taker_fee: takerFee,
    maker_fee: makerFee,
    taker_realized_pnl: t.realizedPnl,
    maker_realized_pnl: m.realizedPnl,
    taker_size_before: t.sizeBefore,
    taker_size_after: t.sizeAfter,
    maker_size_before: m.sizeBefore,
    maker_size_after: m.sizeAfter,
    maker_remaining_lots: makerOrder.remainingLots,
    taker_source_trigger_id: ctx.sourceTriggerId,
    maker_source_trigger_id: makerOrder.sourceTriggerId,
    taker_source_tx_hash: ctx.txHash,
    maker_source_tx_hash: makerOrder.sourceTxHash,
  })
  if (makerOrder.remainingLots === 0) {
    unrestOrder(state, maker, makerOrder)
    events.push({
      kind: 'Exec',
      sub_kind: 'OrderDone',
      market_id: market.marketId,
      account: maker.address,
      order_id: makerOrder.id,
      reason: 'Filled',
      remaining_lots: 0,
      filled_lots: makerOrder.origLots,
      client_order_id: makerOrder.clientOrderId,
    })
  } else {
    resizeOrderMargin(market, maker, makerOrder)
    markLeaf(state, maker)
  }
}
