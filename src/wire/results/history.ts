// Result schemas of the reads backed by the history index
// (docs/history-api.md#json-rpc-methods-backed-by-the-index): candles, an account's fills (the
// userFills item of docs/websocket.md#websocket-protocol with the participant's side and PnL),
// order status, recent trades and the rate-limit view.
import { Type } from '@sinclair/typebox'
import { DecimalString, SideSchema, TifSchema, U32, U53 } from '../schema-types.ts'
import { Address, Nullable, SignedDecimalString, Strict } from './common.ts'
import { OpenOrderViewSchema } from './shared-account.ts'

const SymbolOrNull = Nullable(
  Type.String({ minLength: 1, description: 'the market symbol' }),
  'symbol of market_id, resolved at read time; null for a market the node does not know',
)

/** CandleResponse (docs/rpc.md#getcandles). */
export const CandleResponseSchema = Strict(
  {
    open_time_ms: U53('bucket open time, ms, aligned to the interval'),
    close_time_ms: U53('bucket close time, ms: open_time_ms + interval_ms'),
    open: DecimalString("price of the bucket's first fill (px precision)"),
    high: DecimalString('highest fill price (px precision)'),
    low: DecimalString('lowest fill price (px precision)'),
    close: DecimalString("price of the bucket's last fill (px precision)"),
    volume: DecimalString('sum of fill sizes (sz precision)'),
    trades: Type.Integer({ minimum: 1, description: 'fills in the bucket (buckets without fills are not returned)' }),
  },
  'a candle (CandleResponse)',
)

export const CandlesResult = Type.Array(CandleResponseSchema, { description: 'candles oldest first; the newest `limit` of the range' })

export const PositionActionSchema = Type.Union(
  [Type.Literal('open_long'), Type.Literal('open_short'), Type.Literal('close_long'), Type.Literal('close_short')],
  { description: "what the fill did to the participant's position; a flip through zero reports the close" },
)

/** A fill of one participant: the userFills item (docs/websocket.md#websocket-protocol) with its side, realized PnL and counterparty. */
export const UserFillSchema = Strict(
  {
    block_height: U53('height of the block of the fill'),
    event_seq: U53('sequence of the Filled event in its block'),
    timestamp_ms: U53('block time, ms'),
    market_id: U32('the market'),
    symbol: SymbolOrNull,
    order_id: U53("the participant's order (0 for Book B's side of an external-peg fill)"),
    client_order_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: "client_order_id of the participant's order; absent without one" }),
    ),
    price: DecimalString('fill price (px precision)'),
    qty: DecimalString('fill size (sz precision)'),
    notional: DecimalString('price x qty (SCALE_6)'),
    fee: DecimalString("the participant's gross fee (SCALE_6), without the rebate split"),
    is_taker: Type.Boolean({ description: 'the participant was the taker' }),
    aggressor_side: Type.Union([Type.Literal('Bid'), Type.Literal('Ask')], { description: "the taker's direction: Bid buys, Ask sells" }),
    side: Type.Union([Type.Literal('Bid'), Type.Literal('Ask')], { description: "the participant's side: Bid bought, Ask sold" }),
    realized_pnl: SignedDecimalString('PnL the fill realized for the participant (SCALE_6)'),
    counterparty: Address('the other participant'),
    position_action: Type.Optional(PositionActionSchema),
    trigger_id: Type.Optional(U53("the trigger order the participant's order was promoted from; absent otherwise")),
  },
  'a fill of an account (userFills item)',
)

export const UserFillsResult = Type.Array(UserFillSchema, { description: "the account's fills" })

/**
 * close_reason of getOrderStatus: the chain's OrderDone reason (or Expired) in snake_case. The
 * chain's DoneReason (chain/core/events.ts) plus Expired; a new reason there must be added here.
 */
export const CloseReasonSchema = Type.Union(
  [
    'filled',
    'cancelled',
    'ioc_expired',
    'fok_rejected',
    'self_trade_cancelled',
    'reduce_only_clamped',
    'fill_limit_reached',
    'force_cancelled',
    'replaced',
    'amend_clamped_at_filled',
    'dead_mans_switch',
    'liquidated',
    'market_delisted',
    'expired',
  ].map((r) => Type.Literal(r)),
  { description: 'why the order closed: the OrderDone reason in snake_case (docs/orders.md#done-reasons)' },
)

export const OpenOrderStatusSchema = Strict(
  {
    status: Type.Literal('open', { description: 'the order rests on the book' }),
    source: Type.Literal('chain', { description: 'read from the live chain state' }),
    owner: Address('the account that owns the order'),
    ...OpenOrderViewSchema.properties,
    close_reason: Type.Null({ description: 'null while open' }),
    closed_height: Type.Null({ description: 'null while open' }),
    closed_timestamp_ms: Type.Null({ description: 'null while open' }),
  },
  'an open order',
)

const ClosedOrderStatusSchema = Strict(
  {
    status: Type.Literal('closed', { description: 'the order is done or expired' }),
    source: Type.Union([Type.Literal('hot_cache'), Type.Literal('archive')], {
      description:
        'hot_cache: the close from the in-memory 24 h cache (details once the index has them); archive: the permanent order archive',
    }),
    owner: Address('the account that owned the order'),
    order_id: U53('the order'),
    market_id: U32('the market'),
    symbol: SymbolOrNull,
    side: Nullable(SideSchema, "side; null until the index has the order's placement"),
    price: Nullable(DecimalString('limit price (px precision)'), "limit price; null until the index has the order's placement"),
    qty: Nullable(DecimalString('original size (sz precision)'), "original size; null until the index has the order's placement"),
    remaining: DecimalString('size left unfilled at the close (sz precision)'),
    filled: Nullable(DecimalString('size filled (sz precision)'), 'size filled; null when the close did not report it'),
    tif: Nullable(TifSchema, "time in force; null until the index has the order's placement"),
    reduce_only: Nullable(
      Type.Boolean({ description: 'only reduced a position' }),
      "reduce-only flag; null until the index has the order's placement",
    ),
    client_order_id: Nullable(
      Type.String({ minLength: 1, maxLength: 64, description: "the caller's id" }),
      'the client_order_id it was placed with; null without one',
    ),
    trigger_id: Nullable(U53('the trigger order'), 'the trigger order it was promoted from; null otherwise (or until the index has it)'),
    placed_height: Nullable(U53('height of the block that placed it'), "placement height; null until the index has the order's placement"),
    close_reason: CloseReasonSchema,
    closed_height: U53('height of the block that closed it'),
    closed_timestamp_ms: U53('block time of the close, ms'),
  },
  'a closed order',
)

const UnknownOrderStatusSchema = Strict(
  {
    status: Type.Literal('unknown', { description: 'neither the chain, the hot cache nor the archive knows the order' }),
    source: Type.Null({ description: 'null: no source knows it' }),
    order_id: Nullable(U53('the order'), 'params.order_id when given; null for a client_order_id lookup that found nothing'),
  },
  'an order nobody knows',
)

/** getOrderStatus. */
export const OrderStatusResult = Type.Union([OpenOrderStatusSchema, ClosedOrderStatusSchema, UnknownOrderStatusSchema], {
  description: 'where an order stands: open (chain), closed (hot cache or archive) or unknown',
})

/** RecentTrade as getRecentTrades returns it. */
export const RecentTradeSchema = Strict(
  {
    block_height: U53('height of the block of the trade'),
    event_seq: U53('sequence of the Filled event in its block'),
    timestamp_ms: U53('block time, ms'),
    market_id: U32('the market'),
    symbol: SymbolOrNull,
    price: DecimalString('trade price (px precision)'),
    qty: DecimalString('trade size (sz precision)'),
    notional: DecimalString('price x qty (SCALE_6)'),
    side: Type.Union([Type.Literal('Bid'), Type.Literal('Ask')], { description: "the taker's direction: Bid buys, Ask sells" }),
  },
  'a trade (RecentTrade)',
)

export const RecentTradesResult = Type.Array(RecentTradeSchema, { description: 'trades newest first' })

/** UserRateLimit (docs/limits.md#journal-window). */
export const UserRateLimitResult = Strict(
  {
    address: Address('the address'),
    cum_vlm: DecimalString("notional volume of the address's fills in the window (SCALE_6)"),
    n_requests_used: U53('envelopes the address signed in the window'),
    n_requests_cap: U53('max_tx_per_block, a reference value'),
    window_blocks: U53('blocks of the sliding window (10000)'),
  },
  "an address's volume and signed envelopes over the window (UserRateLimit)",
)
