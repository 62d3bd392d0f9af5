// Result schemas of the markets area (docs/markets.md#read-methods): the market list item and
// detail, settings, summary, BBOs, marks, the oracle quote, market stats and the admin audit log.
import { Type } from '@sinclair/typebox'
import { DecimalString, U32, U53 } from '../schema-types.ts'
import { BLOCK_PRODUCER_SIGNER } from '../views.ts'
import { Address, MarketLifecycleSchema, Nullable, SignedDecimalString, Strict } from './common.ts'
import { EventViewSchema } from './shared-block.ts'

const SymbolSchema = Type.String({ minLength: 1, description: 'the full chain symbol' })

export const RoutingSchema = Type.Union([Type.Literal('native'), Type.Literal('external_peg')], {
  description: "native: takers meet the market's order book; external_peg: takers meet Book B at the oracle quote",
})

export const HaltReasonSchema = Nullable(
  Type.Union([Type.Literal('Admin'), Type.Literal('QuoteStale')], {
    description:
      'Admin: HaltMarket, lifted only by ResumeMarket; QuoteStale: the quote lag exceeded max_quote_lag_ms, lifted by a fresh quote',
  }),
  'why the market is Halted (docs/markets.md#lifecycle); null when it is not (or was halted before the field existed, which behaves like QuoteStale)',
)

const MarketListFields = {
  market_id: U32('the market; ids are never reused'),
  symbol: SymbolSchema,
  price_decimals: Type.Integer({ minimum: 0, maximum: 12, description: 'decimals of prices (px precision)' }),
  size_decimals: Type.Integer({ minimum: 0, maximum: 12, description: 'decimals of sizes (sz precision)' }),
  lifecycle: MarketLifecycleSchema,
  emergency_halt: Type.Boolean({ description: 'the emergency halt flag, separate from lifecycle' }),
  halt_reason: HaltReasonSchema,
  mark_price: DecimalString('mark price (px precision): the liquidation and uPnL price; 0 while unknown'),
  open_interest: DecimalString("total long size (sz precision); on external-peg markets Book B's long included"),
  open_interest_notional: DecimalString('open_interest x mark_price (SCALE_6)'),
  routing: RoutingSchema,
  max_leverage: Type.Integer({ minimum: 1, description: 'highest leverage of new positions' }),
}

/** The getMarkets list item: info fields plus lifecycle, halt state, mark and open interest. */
export const MarketListItemSchema = Strict(MarketListFields, 'a market of the list (getMarkets)')

const MarketSettingsFields = {
  market_id: MarketListFields.market_id,
  symbol: SymbolSchema,
  routing: RoutingSchema,
  price_decimals: MarketListFields.price_decimals,
  size_decimals: MarketListFields.size_decimals,
  maker_fee_bps: Type.Integer({ minimum: 0, description: 'maker fee, bps of notional' }),
  taker_fee_bps: Type.Integer({ minimum: 0, description: 'taker fee, bps of notional' }),
  max_leverage: MarketListFields.max_leverage,
  initial_margin_bps: Type.Integer({
    minimum: 1,
    description: 'initial margin at max_leverage: ceil(10000 / max_leverage), bps of notional',
  }),
  maintenance_margin_bps: Type.Integer({
    minimum: 1,
    description: 'maintenance margin, bps of notional; below it a position is liquidatable',
  }),
  liquidation_penalty_bps: Type.Integer({ minimum: 0, description: 'penalty a liquidated position pays, bps of its notional at the mark' }),
  min_order_qty: DecimalString('smallest order size (sz precision)'),
  fee_recipient: Address('the account fees are paid to'),
  max_fills_per_quote: Type.Integer({ minimum: 1, description: 'fills an external-peg market makes against one oracle quote' }),
  max_quote_lag_ms: U53('a quote older than this (block time - source_ts_ms) is stale: the market halts with QuoteStale'),
  min_quote_interval_ms: U53('least source_ts_ms distance between two accepted quotes'),
  max_quote_change_bps: Type.Integer({ minimum: 0, description: 'largest mark move against the last accepted quote, bps of its mark' }),
  min_quote_price: DecimalString('lowest accepted bid, ask and mark (px precision); 0: no bound'),
  max_quote_price: DecimalString('highest accepted bid, ask and mark (px precision); 0: no bound'),
  max_quote_spread_bps: Type.Integer({ minimum: 0, description: 'largest ask - bid of a quote, bps of the bid' }),
}

/** getMarketSettings: fees, leverage, margins, sizes and the oracle quote limits of a market. */
export const MarketSettingsResult = Strict(MarketSettingsFields, 'the settings of a market (getMarketSettings)')

/** The latest accepted oracle quote (docs/markets.md#an-accepted-quote): the chain keeps neither last_price nor volume. */
export const LatestQuoteSchema = Strict(
  {
    bid_price: DecimalString('quoted best bid (px precision)'),
    ask_price: DecimalString('quoted best ask (px precision)'),
    mark_price: DecimalString('quoted mark (px precision)'),
    source_ts_ms: U53("the quoter's source time, ms"),
    accepted_height: U53('height of the block that accepted it'),
    accepted_at_ms: U53('block time at which it was accepted, ms'),
    lag_ms: Type.Integer({
      minimum: Number.MIN_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
      description:
        'block time - source_ts_ms at the current height; negative while the source time is ahead of the block time (it may lead by up to 13000 ms)',
    }),
    fresh: Type.Boolean({ description: 'lag_ms is at most max_quote_lag_ms: takers of an external-peg market meet this quote' }),
    fills_on_quote: Type.Integer({ minimum: 0, description: 'fills made against this quote (at most max_fills_per_quote)' }),
    last_price: Type.Null({ description: 'always null: only the external_quote WebSocket topic carries last_price' }),
    volume: Type.Null({ description: 'always null: only the external_quote WebSocket topic carries volume' }),
  },
  'the latest accepted oracle quote',
)

const LatestQuoteOrNull = Nullable(LatestQuoteSchema, 'the latest accepted oracle quote; null before the first (native markets have none)')

/** getMarket / getMarketById: the list item and the settings, with top of book and the latest quote. */
export const MarketDetailResult = Strict(
  {
    ...MarketListFields,
    ...MarketSettingsFields,
    best_bid: Nullable(
      DecimalString('price (px precision)'),
      "best bid a taker meets now (external-peg: the fresh quote's bid); null on an empty side",
    ),
    best_ask: Nullable(
      DecimalString('price (px precision)'),
      "best ask a taker meets now (external-peg: the fresh quote's ask); null on an empty side",
    ),
    last_trade_price: Nullable(DecimalString('price (px precision)'), 'price of the last fill; null before the first'),
    open_orders: U53("orders resting on the market's book"),
    delist_requested_at_ms: Nullable(
      U53('block time, ms'),
      'block time of the RequestDelist that made it DelistPending (audit only); null when never requested',
    ),
    latest_quote: LatestQuoteOrNull,
  },
  'a market with its settings, top of book and latest quote (getMarket)',
)

/** BboItem: symbol, bid, ask, spread. */
export const BboItemSchema = Strict(
  {
    symbol: SymbolSchema,
    bid: Nullable(DecimalString('price (px precision)'), 'best bid; null on an empty side (external-peg: without a fresh quote)'),
    ask: Nullable(DecimalString('price (px precision)'), 'best ask; null on an empty side (external-peg: without a fresh quote)'),
    spread: Nullable(DecimalString('ask - bid (px precision)'), 'ask - bid; null when a side is missing'),
  },
  'best bid and offer of a market (BboItem)',
)

/** MarksMap: symbol to mark price. */
export const MarksResult = Type.Record(
  SymbolSchema,
  DecimalString('mark price (px precision): the liquidation and uPnL price, not the book mid'),
  {
    description: 'symbol to mark price of every market that is not Delisted (MarksMap)',
  },
)

/** MarketSummary (also the hot-read /markets/{symbol}/summary, docs/websocket.md#hot-read-rest). */
export const MarketSummaryResult = Strict(
  {
    market_id: MarketListFields.market_id,
    symbol: SymbolSchema,
    mark_price: MarketListFields.mark_price,
    best_bid: Nullable(DecimalString('price (px precision)'), 'best bid from the top of book; null on an empty side'),
    best_ask: Nullable(DecimalString('price (px precision)'), 'best ask from the top of book; null on an empty side'),
    spread: Nullable(DecimalString('ask - bid (px precision)'), 'best_ask - best_bid; null when a side is missing'),
    open_interest: MarketListFields.open_interest,
    open_interest_notional: MarketListFields.open_interest_notional,
    fills_in_block: Type.Integer({ minimum: 0, description: 'fills in the last committed block' }),
    bid_levels: Type.Integer({ minimum: 0, description: 'bid price levels (external-peg: 1 with a fresh quote, else 0)' }),
    ask_levels: Type.Integer({ minimum: 0, description: 'ask price levels (external-peg: 1 with a fresh quote, else 0)' }),
    open_orders: U53('orders resting on the chain book'),
    prev_day_price: Nullable(
      DecimalString('price (px precision)'),
      'the mark at the end of the previous UTC day; null until the node has seen a day end',
    ),
    day_ntl_volume: DecimalString('notional traded since UTC midnight (SCALE_6)'),
    day_base_volume: DecimalString('size traded since UTC midnight (sz precision)'),
  },
  'a market summary (MarketSummary)',
)

/** MarketStatsResponse (docs/markets.md#market-stats-getmarketstats; also the market_stats of the external_quote push). */
export const MarketStatsResult = Strict(
  {
    market_id: MarketListFields.market_id,
    symbol: SymbolSchema,
    long_size: DecimalString("total size of traders' long positions (sz precision)"),
    short_size: DecimalString("total size of traders' short positions (sz precision)"),
    net_size: SignedDecimalString('long_size - short_size (sz precision); negative when traders are net short'),
    oracle_counter_pnl: SignedDecimalString('realized PnL of Book B, the oracle counterparty, in this market (SCALE_6)'),
    open_interest: MarketListFields.open_interest,
    open_interest_notional: MarketListFields.open_interest_notional,
    fills_in_block: Type.Integer({ minimum: 0, description: 'fills in the last committed block' }),
    block_height: U53('chain height of these figures'),
  },
  "traders' exposure and Book B PnL of a market (MarketStatsResponse)",
)

/** getOracleQuote: the latest quote with its freshness, fill budget, reject streak and quote limits. */
export const OracleQuoteResult = Strict(
  {
    market_id: MarketListFields.market_id,
    symbol: SymbolSchema,
    routing: RoutingSchema,
    lifecycle: MarketLifecycleSchema,
    halt_reason: HaltReasonSchema,
    quote: LatestQuoteOrNull,
    consecutive_rejects: Type.Integer({
      minimum: 0,
      description: 'rejected quotes since the last accepted one (QuoteRejectStorm is raised at 5)',
    }),
    max_fills_per_quote: MarketSettingsFields.max_fills_per_quote,
    max_quote_lag_ms: MarketSettingsFields.max_quote_lag_ms,
    min_quote_interval_ms: MarketSettingsFields.min_quote_interval_ms,
    max_quote_change_bps: MarketSettingsFields.max_quote_change_bps,
    min_quote_price: MarketSettingsFields.min_quote_price,
    max_quote_price: MarketSettingsFields.max_quote_price,
    max_quote_spread_bps: MarketSettingsFields.max_quote_spread_bps,
  },
  'the oracle quote of a market and its limits (OracleQuoteResponse)',
)

/** AdminAuditEntry (docs/rpc.md#getadminauditlog). */
export const AdminAuditEntrySchema = Strict(
  {
    block_height: U53('height of the block that holds the event'),
    event_seq: U53('sequence of the event in its block'),
    timestamp_ms: U53('block time, ms'),
    signer: Address(
      `who signed the envelope behind the event; ${BLOCK_PRODUCER_SIGNER} (the block producer) for an event the chain raised itself (a quote-stale halt or resume, a reject storm)`,
    ),
    event: Strict(
      {
        ...EventViewSchema.properties,
        kind: Type.Literal('Ops', { description: 'always Ops: market, lifecycle, exchange and role changes' }),
        account: Nullable(
          Address('the account'),
          "the account the event is about (best effort); null for the chain's own market-level events (quote-stale halt and resume, QuoteRejectStorm)",
        ),
      },
      'the Ops event (EventView)',
    ),
  },
  'an Ops event with its block, time and signer (AdminAuditEntry)',
)
