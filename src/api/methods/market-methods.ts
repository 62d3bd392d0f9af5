// Read methods of the markets area (docs/markets.md#read-methods): the market list and detail,
// summary, settings, BBOs, marks, the admin audit log, and the venue's oracle quote and market
// stats. Every method resolves its market with the one resolver of
// docs/markets.md#symbol-resolution (wire/symbols.ts): market_id over symbol, symbol by exact or
// prefix match, Delisted markets only by id.
import { type Static, Type } from '@sinclair/typebox'
import type { ChainState, Market } from '../../chain/index.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import { normalizeAddress } from '../../lib/hex.ts'
import type { ChainNode } from '../../node/chain-node.ts'
import { eventView, symbolLookup } from '../../node/views.ts'
import {
  AdminAuditEntrySchema,
  BboItemSchema,
  MarketDetailResult,
  MarketListItemSchema,
  MarketSettingsResult,
  MarketStatsResult,
  MarketSummaryResult,
  MarksResult,
  OracleQuoteResult,
} from '../../wire/results/market.ts'
import { Address20, U32, U53 } from '../../wire/schema-types.ts'
import type { MarketRef } from '../../wire/symbols.ts'
import { BLOCK_PRODUCER_SIGNER } from '../../wire/views.ts'
import {
  bboView,
  type DayCounters,
  latestQuoteView,
  liveMarkets,
  marketDetail,
  marketListItem,
  marketSettingsView,
  marketStatsView,
  marketSummaryView,
} from '../views/market-view.ts'
import { feedRuntime } from '../ws/runtime.ts'
import { marketRefFields, requireMarket as requireMarketRef } from './params.ts'
import { method, type QueryContext } from './registry.ts'

const NoParams = Type.Object({}, { additionalProperties: false })
const MarketRefParams = Type.Object(
  marketRefFields({
    market_id: 'the market; takes precedence over symbol and may name a Delisted market',
    symbol: 'symbol or base-asset prefix, case-insensitive; Delisted markets are skipped',
  }),
  { additionalProperties: false },
)

/** Audit log page size: default and maximum (docs/limits.md#json-rpc-lists). */
export const AUDIT_LIMIT_DEFAULT = 100
export const AUDIT_LIMIT_MAX = 1_000
/** Blocks the audit log looks back at most (docs/limits.md#journal-window). */
export const AUDIT_SCAN_BLOCKS_MAX = 10_000

/** The market a read names (requireMarket of params.ts, with the symbol quoted in MarketNotFound messages). */
function requireMarket(state: ChainState, ref: MarketRef): Market {
  return requireMarketRef(state, ref, { quoteSymbol: true })
}

/** The hot feed's day counters and fills of the last block for a market (the feed folds committed blocks). */
function dayCounters(node: ChainNode, m: Market): DayCounters | undefined {
  const fm = feedRuntime(node).feed.market(m.marketId)
  if (fm === undefined) return undefined
  return {
    fillsInBlock: fm.fillsInBlock,
    prevDayPrice: fm.prevDayPrice,
    dayNotional: formatDecimal(fm.dayNotional, 6),
    dayBaseVolume: formatDecimal(BigInt(fm.dayBaseLots), m.sizeDecimals),
  }
}

/** MarketStatsResponse of a market by id, for the external_quote push of the feed runtime. */
export function marketStatsReader(node: ChainNode): (marketId: number) => Record<string, unknown> | undefined {
  return (marketId) => {
    const m = node.state.markets.get(marketId)
    return m === undefined ? undefined : marketStatsView(node.state, m, dayCounters(node, m)?.fillsInBlock ?? 0)
  }
}

export const marketMethods = [
  method({
    name: 'getMarkets',
    cachePerBlock: true,
    description:
      'Every market that is not Delisted, by market_id, with lifecycle, emergency_halt, halt_reason, mark_price and open interest.',
    params: NoParams,
    result: Type.Array(MarketListItemSchema, { description: 'markets that are not Delisted, by market_id' }),
    handler: (ctx) => ({ data: liveMarkets(ctx.node.state).map(marketListItem) }),
  }),
  method({
    name: 'getMarket',
    cachePerBlock: true,
    description: 'One market by market_id or symbol (prefix, case-insensitive): settings, top of book, halt_reason and latest_quote.',
    params: MarketRefParams,
    result: MarketDetailResult,
    example: { symbol: 'BTC' },
    handler: (ctx, p) => ({ data: marketDetail(ctx.node.state, requireMarket(ctx.node.state, p)) }),
  }),
  method({
    name: 'getMarketById',
    cachePerBlock: true,
    description: 'One market by market_id (may address a Delisted market); same shape as getMarket.',
    params: Type.Object({ market_id: U32('the market') }, { additionalProperties: false }),
    result: MarketDetailResult,
    example: { market_id: 4 },
    handler: (ctx, p) => ({ data: marketDetail(ctx.node.state, requireMarket(ctx.node.state, p)) }),
  }),
  method({
    name: 'getMarketSummary',
    description: 'MarketSummary: mark, top of book, open interest, levels, open orders, fills in the last block and the UTC-day volumes.',
    params: MarketRefParams,
    result: MarketSummaryResult,
    example: { symbol: 'BTC-USD' },
    handler: (ctx: QueryContext, p) => {
      const m = requireMarket(ctx.node.state, p)
      return { data: marketSummaryView(ctx.node.state, m, dayCounters(ctx.node, m)) }
    },
  }),
  method({
    name: 'getMarketSettings',
    description: 'Fees, leverage, margins, minimum order size, fee recipient, max_fills_per_quote and the oracle quote limits of a market.',
    params: MarketRefParams,
    result: MarketSettingsResult,
    example: { market_id: 1 },
    handler: (ctx, p) => ({ data: marketSettingsView(requireMarket(ctx.node.state, p)) }),
  }),
  method({
    name: 'getAllBBOs',
    cachePerBlock: true,
    description: 'BboItem of every market that is not Delisted (external-peg markets: the fresh quote), sorted by symbol.',
    params: NoParams,
    result: Type.Array(BboItemSchema, { description: 'BboItem of every market that is not Delisted, sorted by symbol' }),
    handler: (ctx) => {
      const state = ctx.node.state
      const items = liveMarkets(state).map((m) => bboView(state, m))
      return { data: items.sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0)) }
    },
  }),
  method({
    name: 'getAllMarks',
    cachePerBlock: true,
    description: 'MarksMap: symbol to mark price (the liquidation and uPnL price) of every market that is not Delisted.',
    params: NoParams,
    result: MarksResult,
    handler: (ctx) => {
      const out: Record<string, string> = {}
      for (const m of liveMarkets(ctx.node.state)) out[m.symbol] = marketListItem(m).mark_price
      return { data: out }
    },
  }),
  method({
    name: 'getOracleQuote',
    description: 'The latest oracle quote of a market with its freshness, fill budget, reject streak and quote limits.',
    params: MarketRefParams,
    result: OracleQuoteResult,
    example: { symbol: 'XAU-USD' },
    handler: (ctx, p) => {
      const state = ctx.node.state
      const m = requireMarket(state, p)
      const s = marketSettingsView(m)
      const data: Static<typeof OracleQuoteResult> = {
        market_id: m.marketId,
        symbol: m.symbol,
        routing: m.routing,
        lifecycle: m.lifecycle,
        halt_reason: m.lifecycle === 'Halted' ? m.haltReason : null,
        quote: latestQuoteView(state, m),
        consecutive_rejects: m.oracle.consecutiveRejects,
        max_fills_per_quote: m.maxFillsPerQuote,
        max_quote_lag_ms: s.max_quote_lag_ms,
        min_quote_interval_ms: s.min_quote_interval_ms,
        max_quote_change_bps: s.max_quote_change_bps,
        min_quote_price: s.min_quote_price,
        max_quote_price: s.max_quote_price,
        max_quote_spread_bps: s.max_quote_spread_bps,
      }
      return { data }
    },
  }),
  method({
    name: 'getMarketStats',
    description:
      "MarketStatsResponse (docs/markets.md#market-stats-getmarketstats): traders' long, short and net size, the oracle counterparty's PnL, open interest, fills in the last block.",
    params: MarketRefParams,
    result: MarketStatsResult,
    example: { symbol: 'XAU' },
    handler: (ctx, p) => {
      const m = requireMarket(ctx.node.state, p)
      return { data: marketStatsView(ctx.node.state, m, dayCounters(ctx.node, m)?.fillsInBlock ?? 0) }
    },
  }),
  method({
    name: 'getAdminAuditLog',
    paged: true,
    description: `Ops events (market, lifecycle, exchange and role changes) newest first, with block, time and signer; scans at most the last 10,000 blocks. limit default 100, max 1000. An event the chain raised itself (a quote-stale halt or resume, a reject storm) has no envelope: its signer is ${BLOCK_PRODUCER_SIGNER}, the block producer's marker, and signer=${BLOCK_PRODUCER_SIGNER} selects those events.`,
    params: Type.Object(
      {
        signer: Type.Optional(Address20(`only events of envelopes this address signed (${BLOCK_PRODUCER_SIGNER}: the chain's own events)`)),
        start_time_ms: Type.Optional(U53('earliest block time, inclusive')),
        end_time_ms: Type.Optional(U53('latest block time, inclusive')),
        offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'entries to skip, default 0' })),
        limit: Type.Optional(Type.Integer({ minimum: 1, description: 'entries, default 100, clamped to 1000' })),
      },
      { additionalProperties: false },
    ),
    result: Type.Array(AdminAuditEntrySchema, { description: 'Ops events, newest first' }),
    example: { signer: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', limit: 20 },
    handler: (ctx, p) => {
      const tip = ctx.node.state.height
      const offset = p.offset ?? 0
      const limit = Math.min(p.limit ?? AUDIT_LIMIT_DEFAULT, AUDIT_LIMIT_MAX)
      const signer = p.signer === undefined ? null : (normalizeAddress(p.signer) ?? null)
      const rows = ctx.node.store.auditEvents({
        fromHeight: Math.max(1, tip - AUDIT_SCAN_BLOCKS_MAX + 1),
        toHeight: tip,
        startMs: p.start_time_ms ?? 0,
        endMs: p.end_time_ms ?? Number.MAX_SAFE_INTEGER,
        signer,
        offset,
        limit: limit + 1,
      })
      const symbolOf = symbolLookup(ctx.node.state)
      const data = rows.slice(0, limit).map((r) => ({
        block_height: r.height,
        event_seq: r.seq,
        timestamp_ms: r.timestampMs,
        signer: r.signer,
        event: eventView(r, symbolOf),
      }))
      return { data, height: tip, page: { offset, limit, total: null, next_cursor: null, has_more: rows.length > limit } }
    },
  }),
]
