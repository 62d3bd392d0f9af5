// Market read views (docs/markets.md#read-methods): the getMarkets list item, the getMarket detail
// with its latest_quote, the settings, BBOs, stats and summary. Decimal strings at the market's
// precision.
import type { Static } from '@sinclair/typebox'
import { type ChainState, freshQuote, type Market, marketStats, notionalOf, quoteLagMs } from '../../chain/index.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import type {
  BboItemSchema,
  LatestQuoteSchema,
  MarketDetailResult,
  MarketListItemSchema,
  MarketSettingsResult,
  MarketStatsResult,
  MarketSummaryResult,
} from '../../wire/results/market.ts'

export const formatPrice = (m: Market, ticks: number) => formatDecimal(BigInt(ticks), m.priceDecimals)
export const formatSize = (m: Market, lots: number) => formatDecimal(BigInt(lots), m.sizeDecimals)
const formatPriceOrNull = (m: Market, ticks: number | undefined) => (ticks === undefined || ticks === 0 ? null : formatPrice(m, ticks))

/** Markets that are not Delisted, by market_id: the markets the list reads show. */
export function liveMarkets(state: ChainState): Market[] {
  return [...state.markets.values()].filter((m) => m.lifecycle !== 'Delisted').sort((a, b) => a.marketId - b.marketId)
}

/** The getMarkets list item (docs/rpc.md#getmarkets: info fields plus lifecycle, emergency_halt, mark_price, halt_reason, open interest). */
export function marketListItem(m: Market): Static<typeof MarketListItemSchema> {
  return {
    market_id: m.marketId,
    symbol: m.symbol,
    price_decimals: m.priceDecimals,
    size_decimals: m.sizeDecimals,
    lifecycle: m.lifecycle,
    emergency_halt: m.emergencyHalt,
    halt_reason: m.lifecycle === 'Halted' ? m.haltReason : null,
    mark_price: formatPrice(m, m.markTicks),
    open_interest: formatSize(m, m.openInterestLots),
    open_interest_notional: formatDecimal(notionalOf(m, m.markTicks, m.openInterestLots), 6),
    routing: m.routing,
    max_leverage: m.maxLeverage,
  }
}

/** A market's fees, margins, sizes and quote limits (getMarketSettings, and part of the detail). */
export function marketSettingsView(m: Market): Static<typeof MarketSettingsResult> {
  const q = m.quoteLimits
  return {
    market_id: m.marketId,
    symbol: m.symbol,
    routing: m.routing,
    price_decimals: m.priceDecimals,
    size_decimals: m.sizeDecimals,
    maker_fee_bps: m.makerFeeBps,
    taker_fee_bps: m.takerFeeBps,
    max_leverage: m.maxLeverage,
    initial_margin_bps: Math.ceil(10_000 / m.maxLeverage),
    maintenance_margin_bps: m.maintenanceMarginBps,
    liquidation_penalty_bps: m.liquidationPenaltyBps,
    min_order_qty: formatSize(m, m.minOrderLots),
    fee_recipient: m.feeRecipient,
    max_fills_per_quote: m.maxFillsPerQuote,
    max_quote_lag_ms: q.maxLagMs,
    min_quote_interval_ms: q.minIntervalMs,
    max_quote_change_bps: q.maxChangeBps,
    min_quote_price: formatPrice(m, q.minPriceTicks),
    max_quote_price: formatPrice(m, q.maxPriceTicks),
    max_quote_spread_bps: q.maxSpreadBps,
  }
}

/**
 * The latest accepted oracle quote (docs/markets.md#an-accepted-quote): last_price and volume are
 * always null (the chain keeps neither), and quoter_last_sequence is gone. Null before the first
 * quote.
 */
export function latestQuoteView(state: ChainState, m: Market): Static<typeof LatestQuoteSchema> | null {
  const q = m.oracle.latest
  if (q === null) return null
  return {
    bid_price: formatPrice(m, q.bidTicks),
    ask_price: formatPrice(m, q.askTicks),
    mark_price: formatPrice(m, q.markTicks),
    source_ts_ms: q.sourceTsMs,
    accepted_height: q.acceptedHeight,
    accepted_at_ms: q.acceptedAtMs,
    lag_ms: quoteLagMs(m, state.timestampMs),
    fresh: freshQuote(m, state.timestampMs) !== undefined,
    fills_on_quote: m.oracle.fillsOnQuote,
    last_price: null,
    volume: null,
  }
}

/** Best bid and ask a taker meets now: the book's on a native market, the fresh quote's on an external-peg one. */
export function bestPrices(state: ChainState, m: Market): { bid: number | undefined; ask: number | undefined } {
  if (m.routing === 'external_peg') {
    const q = freshQuote(m, state.timestampMs)
    return { bid: q?.bidTicks, ask: q?.askTicks }
  }
  const book = state.books.get(m.marketId)
  return { bid: book?.bestBid(), ask: book?.bestAsk() }
}

/** A BboItem (docs/rpc.md#getallbbos): symbol, bid, ask and spread, null where a side is missing. */
export function bboView(state: ChainState, m: Market): Static<typeof BboItemSchema> {
  const { bid, ask } = bestPrices(state, m)
  return {
    symbol: m.symbol,
    bid: formatPriceOrNull(m, bid),
    ask: formatPriceOrNull(m, ask),
    spread: bid === undefined || ask === undefined ? null : formatPrice(m, ask - bid),
  }
}

/** MarketStatsResponse (docs/markets.md#market-stats-getmarketstats); fills_in_block comes from the committed block (the hot feed). */
export function marketStatsView(state: ChainState, m: Market, fillsInBlock: number): Static<typeof MarketStatsResult> {
  const s = marketStats(state, m)
  return {
    market_id: m.marketId,
    symbol: m.symbol,
    long_size: formatSize(m, s.longLots),
    short_size: formatSize(m, s.shortLots),
    net_size: formatSize(m, s.netLots),
    oracle_counter_pnl: formatDecimal(s.oracleCounterPnl, 6),
    open_interest: formatSize(m, s.openInterestLots),
    open_interest_notional: formatDecimal(s.openInterestNotional, 6),
    fills_in_block: fillsInBlock,
    block_height: state.height,
  }
}

/** The getMarket / getMarketById detail. */
export function marketDetail(state: ChainState, m: Market): Static<typeof MarketDetailResult> {
  const book = state.books.get(m.marketId)
  const { bid, ask } = bestPrices(state, m)
  return {
    ...marketListItem(m),
    ...marketSettingsView(m),
    best_bid: formatPriceOrNull(m, bid),
    best_ask: formatPriceOrNull(m, ask),
    last_trade_price: formatPriceOrNull(m, m.lastTradeTicks),
    open_orders: book?.size ?? 0,
    delist_requested_at_ms: m.delistRequestedAtMs,
    latest_quote: latestQuoteView(state, m),
  }
}

/** Day counters of the hot feed, for the summary (absent when no feed runs). */
export interface DayCounters {
  readonly fillsInBlock: number
  readonly prevDayPrice: string | null
  readonly dayNotional: string
  readonly dayBaseVolume: string
}

/** MarketSummary (docs/rpc.md#getmarketsummary) from the chain state and the feed's day counters. */
export function marketSummaryView(state: ChainState, m: Market, day: DayCounters | undefined): Static<typeof MarketSummaryResult> {
  const book = state.books.get(m.marketId)
  const bbo = bboView(state, m)
  return {
    market_id: m.marketId,
    symbol: m.symbol,
    mark_price: formatPrice(m, m.markTicks),
    best_bid: bbo.bid,
    best_ask: bbo.ask,
    spread: bbo.spread,
    open_interest: formatSize(m, m.openInterestLots),
    open_interest_notional: formatDecimal(notionalOf(m, m.markTicks, m.openInterestLots), 6),
    fills_in_block: day?.fillsInBlock ?? 0,
    bid_levels: m.routing === 'native' ? (book?.levels('Bid', Number.MAX_SAFE_INTEGER).length ?? 0) : bbo.bid === null ? 0 : 1,
    ask_levels: m.routing === 'native' ? (book?.levels('Ask', Number.MAX_SAFE_INTEGER).length ?? 0) : bbo.ask === null ? 0 : 1,
    open_orders: book?.size ?? 0,
    prev_day_price: day?.prevDayPrice ?? null,
    day_ntl_volume: day?.dayNotional ?? '0',
    day_base_volume: day?.dayBaseVolume ?? '0',
  }
}
