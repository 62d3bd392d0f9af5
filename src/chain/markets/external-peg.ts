// External-peg markets (docs/markets.md#external-peg-markets): no book of their own. A taker order
// fills against the market's current oracle quote (a Bid at the quote's ask, an Ask at its bid)
// with the exchange's own account, "Book B", as the counterparty; Book B's positions are the
// oracle_counter side of the market stats. Each quote allows at most max_fills_per_quote fills;
// without a fresh quote (or with its fills used up) an order is QuoteNotAvailable.
//
// An order fills in full at the quote price or not at all (a quote carries no depth): Ioc and Gtc
// that do not reach the quote end IocExpired with nothing filled (nothing rests on a peg market),
// Fok is FokRejected, PostOnly is refused (PegMarketTakerOnly). Reduce-only clamps to the position.
// Book B pays no maker fee and takes no margin check: it is the house, capitalized off-chain.
import type { EventSink } from '../core/events.ts'
import { feeOf, notionalOf } from '../core/math.ts'
import { reject } from '../core/reasons.ts'
import type { Account, ChainState, Market, Order, Side } from '../core/types.ts'
import { collectFee } from '../funds/fees.ts'
import { positionMargin, unrealizedPnl } from '../margin/margin.ts'
import { checkOrderMargin, type FillsOutcome } from '../margin/margin-check.ts'
import { applyTrade, newPosition, positionFor, positionSettings, settlePosition, type TradeResult } from '../margin/positions.ts'
import { cancelRestingOrder, credit, creditTrade } from '../orders/order-ops.ts'
import type { DecodedOrder, PlaceContext, PlaceOutcome } from '../orders/order-types.ts'
import { closableLots } from '../orders/reduce-only.ts'
import { markLeaf } from '../state/state-root.ts'
import { freshQuote } from './oracle.ts'

/** Book B: the exchange's counterparty account of every external-peg market (no key signs for it). */
export const BOOK_B_ADDRESS = '0x00000000000000000000000000000000000000bb'

/** Maker order id of a fill against Book B (it has no order). */
export const BOOK_B_ORDER_ID = 0

/** Places a decoded order on an external-peg market (replacing `replaced`, as placeOrder); the caller checked tradability. */
export function placePegOrder(
  state: ChainState,
  account: Account,
  market: Market,
  o: DecodedOrder,
  ctx: PlaceContext,
  events: EventSink,
  replaced: Order | undefined,
): PlaceOutcome {
  const quote = freshQuote(market, ctx.timestampMs)
  if (quote === undefined) {
    return reject(
      'QuoteNotAvailable',
      `${market.symbol} fills against oracle quotes and has no fresh one ` + `(max_quote_lag_ms ${market.quoteLimits.maxLagMs})`,
    )
  }
  if (market.oracle.fillsOnQuote >= market.maxFillsPerQuote) {
    return reject(
      'QuoteNotAvailable',
      `the latest ${market.symbol} quote has made its ${market.maxFillsPerQuote} fills; the next quote allows more`,
    )
  }
  if (o.tif === 'PostOnly')
    return reject('PegMarketTakerOnly', `${market.symbol} fills against oracle quotes: nothing rests, so PostOnly cannot apply`)
  const position = account.positions.get(market.marketId)
  const size = position?.sizeLots ?? 0
  let qtyLots = o.qtyLots
  if (o.reduceOnly) {
    const closable = closableLots(size, o.side)
    if (closable === 0 || (o.tif === 'Fok' && closable < qtyLots))
      return reject('ReduceOnlyWouldOpenOrFlip', `position ${size} lots cannot absorb a reduce-only ${o.side} of ${qtyLots}`)
    qtyLots = Math.min(qtyLots, closable)
  }
  const priceTicks = o.side === 'Bid' ? quote.askTicks : quote.bidTicks
  const crosses = o.side === 'Bid' ? o.priceTicks >= priceTicks : o.priceTicks <= priceTicks
  if (!crosses && o.tif === 'Fok')
    return reject('FokRejected', `limit ${o.priceTicks} does not reach the quote's ${o.side === 'Bid' ? 'ask' : 'bid'} ${priceTicks}`)
  const notional = crosses ? notionalOf(market, priceTicks, qtyLots) : 0n
  if (crosses && notional === 0n) return reject('DustNotionalFill', `a fill of ${qtyLots} lots at ${priceTicks} ticks has zero notional`)
  const delta = o.side === 'Bid' ? qtyLots : -qtyLots
  if (crosses) {
    const settings = position ?? positionSettings(account, market)
    const sim =
      position === undefined ? newPosition(account.address, market.marketId, settings.leverage, settings.marginMode) : { ...position }
    const t = applyTrade(sim, delta, notional)
    const after: FillsOutcome = {
      position: sim,
      realizedPnl: t.realizedPnl,
      totalFees: feeOf(notional, market.takerFeeBps),
      isolatedTransfer: t.isolatedTransfer,
      margin: positionMargin(market, sim),
      upnl: unrealizedPnl(market, sim),
    }
    const increases = Math.abs(sim.sizeLots) > Math.abs(size) || Math.sign(sim.sizeLots) * Math.sign(size) < 0
    const short = checkOrderMargin({
      state,
      account,
      market,
      position,
      marginMode: settings.marginMode,
      reduceOnly: o.reduceOnly,
      increases,
      restMargin: 0n,
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
  if (crosses) fillAgainstBookB(state, market, account, { orderId, side: o.side, priceTicks, lots: qtyLots, notional, ctx }, events)
  const filled = crosses ? qtyLots : 0
  events.push({
    kind: 'Exec',
    sub_kind: 'OrderDone',
    market_id: market.marketId,
    account: account.address,
    order_id: orderId,
    reason: filled === o.qtyLots ? 'Filled' : filled > 0 ? 'ReduceOnlyClamped' : 'IocExpired',
    remaining_lots: o.qtyLots - filled,
    filled_lots: filled,
    client_order_id: o.clientOrderId,
  })
  return orderId
}

/** One fill of a taker against Book B. */
export interface BookBFill {
  readonly orderId: number
  /** The taker's side. */
  readonly side: Side
  readonly priceTicks: number
  readonly lots: number
  readonly notional: bigint
  readonly ctx: Pick<PlaceContext, 'txHash' | 'sourceTriggerId'>
}

/**
 * Executes a fill of taker against Book B at a quote price: both positions, the taker's fee, Book
 * B's realized PnL (market stats), open interest, the quote's fill count, the Filled event. The
 * caller has done every check; this only applies. Usable by liquidation on external-peg markets.
 */
export function fillAgainstBookB(state: ChainState, market: Market, taker: Account, f: BookBFill, events: EventSink): void {
  const bookB = credit(state, BOOK_B_ADDRESS, 0n)
  const takerPos = positionFor(state, taker, market)
  const t: TradeResult = applyTrade(takerPos, f.side === 'Bid' ? f.lots : -f.lots, f.notional)
  const bookPos = positionFor(state, bookB, market)
  const m = applyTrade(bookPos, f.side === 'Bid' ? -f.lots : f.lots, f.notional)
  const takerFee = feeOf(f.notional, market.takerFeeBps)
  market.openInterestLots += Math.max(0, t.sizeAfter) + Math.max(0, m.sizeAfter) - Math.max(0, t.sizeBefore) - Math.max(0, m.sizeBefore)
  market.lastTradeTicks = f.priceTicks
  market.oracle.fillsOnQuote++
  market.oracle.counterRealizedPnl += m.realizedPnl
  markLeaf(state, market)
  settlePosition(state, bookB, bookPos)
  creditTrade(state, bookB, m.realizedPnl, m.isolatedTransfer, 0n)
  settlePosition(state, taker, takerPos)
  creditTrade(state, taker, t.realizedPnl, t.isolatedTransfer, takerFee)
  collectFee(state, market, taker, takerFee, events)
  events.push({
    kind: 'Exec',
    sub_kind: 'Filled',
    market_id: market.marketId,
    account: taker.address,
    taker: taker.address,
    maker: BOOK_B_ADDRESS,
    taker_order_id: f.orderId,
    maker_order_id: BOOK_B_ORDER_ID,
    taker_side: f.side,
    price_ticks: f.priceTicks,
    qty_lots: f.lots,
    notional: f.notional,
    taker_fee: takerFee,
    maker_fee: 0n,
    taker_realized_pnl: t.realizedPnl,
    maker_realized_pnl: m.realizedPnl,
    taker_size_before: t.sizeBefore,
    taker_size_after: t.sizeAfter,
    maker_size_before: m.sizeBefore,
    maker_size_after: m.sizeAfter,
    maker_remaining_lots: 0,
    taker_source_trigger_id: f.ctx.sourceTriggerId,
    maker_source_trigger_id: null,
    taker_source_tx_hash: f.ctx.txHash,
    maker_source_tx_hash: null,
  })
}
