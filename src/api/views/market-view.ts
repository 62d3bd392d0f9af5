// Market read views (spec §2.4): the getMarkets list item and the getMarket detail.
import { notionalOf } from '../../chain/math.ts'
import type { ChainState, Market } from '../../chain/types.ts'
import { formatDecimal } from '../../lib/decimal.ts'

export const formatPrice = (m: Market, ticks: number) => formatDecimal(BigInt(ticks), m.priceDecimals)
export const formatSize = (m: Market, lots: number) => formatDecimal(BigInt(lots), m.sizeDecimals)

/** The getMarkets list item. */
export function marketListItem(m: Market) {
  return {
    market_id: m.marketId,
    symbol: m.symbol,
    price_decimals: m.priceDecimals,
    size_decimals: m.sizeDecimals,
    lifecycle: m.lifecycle,
    emergency_halt: m.emergencyHalt,
    halt_reason: m.haltReason,
    mark_price: formatPrice(m, m.markTicks),
    open_interest: formatSize(m, m.openInterestLots),
    open_interest_notional: formatDecimal(notionalOf(m, m.markTicks, m.openInterestLots), 6),
    routing: m.routing,
    max_leverage: m.maxLeverage,
  }
}

/** The getMarket / getMarketById detail. */
export function marketDetail(state: ChainState, m: Market) {
  const book = state.books.get(m.marketId)
  const bid = book?.bestBid()
  const ask = book?.bestAsk()
  return {
    ...marketListItem(m),
    maker_fee_bps: m.makerFeeBps,
    taker_fee_bps: m.takerFeeBps,
    maintenance_margin_bps: m.maintenanceMarginBps,
    initial_margin_bps: Math.ceil(10_000 / m.maxLeverage),
    min_order_qty: formatSize(m, m.minOrderLots),
    fee_recipient: m.feeRecipient,
    max_fills_per_quote: m.maxFillsPerQuote,
    best_bid: bid === undefined ? null : formatPrice(m, bid),
    best_ask: ask === undefined ? null : formatPrice(m, ask),
    last_trade_price: m.lastTradeTicks === 0 ? null : formatPrice(m, m.lastTradeTicks),
    open_orders: book?.size ?? 0,
    // No oracle quote has been accepted for this market yet (quotes arrive with SubmitOracleQuote).
    latest_quote: null,
  }
}
