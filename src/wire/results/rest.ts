// Reply bodies of the node's REST routes that are not a JSON-RPC result: the error bodies, the
// page of a history list, the chain and hot-read wrappers with the hot-read shapes, candles, the
// health body and GET /api/v1/status. The routes (src/api/routes/) declare their replies with
// these, and the OpenAPI document of the node is built from those declarations.
import { type TSchema, Type } from '@sinclair/typebox'
import { DecimalString, U32, U53 } from '../schema-types.ts'
import { Strict } from './common.ts'
import { MarketSummaryResult } from './market.ts'

/** {error}: every REST error but the gate's (docs/errors.md#http-statuses). */
export const ErrorBody = Type.Object(
  { error: Type.String({ description: 'what went wrong' }) },
  { description: 'an error (docs/errors.md#http-statuses)' },
)

/** The 503 of a route while the node recovers or is halted. */
export const GateBody = Type.Object(
  {
    error: Type.String(),
    reason: Type.Union([Type.Literal('RECOVERING'), Type.Literal('HALTED'), Type.Literal('DIVERGED')]),
    retry_after_ms: U53('wait this long before retrying'),
    message: Type.String(),
  },
  { description: 'the node is recovering or halted (docs/operations.md#health); Retry-After says when to come back' },
)

/** The page of a history list: total only with include_total; next_cursor on cursor endpoints. */
export const RestPage = Type.Object(
  {
    offset: U53('rows skipped before this page'),
    limit: U53('rows this page may hold'),
    total: Type.Optional(Type.Union([U53('rows in all'), Type.Null()])),
    next_cursor: Type.Optional(
      Type.Union([Type.String(), Type.Null()], { description: 'pass as cursor to read the next page; null on the last page' }),
    ),
    has_more: Type.Boolean({ description: 'true when rows follow this page' }),
  },
  { additionalProperties: false },
)

/** The page of a list without a cursor. */
export const OffsetPage = Type.Omit(RestPage, ['next_cursor'], { additionalProperties: false })

/** {data: row[], page}. */
export const pagedOf = (row: TSchema) => Type.Object({ data: Type.Array(row), page: RestPage }, { additionalProperties: false })

/** The chain wrapper of the REST aliases of JSON-RPC methods. */
export const ChainWrapped = (data: TSchema) =>
  Strict({ height: U53('height of the chain state the data was read at'), data }, 'the chain wrapper {height, data}')

/** The hot-read wrapper (docs/websocket.md#hot-read-rest). */
export const HotWrapped = (data: TSchema) =>
  Strict(
    {
      chain_height: U53('height of the last block the hot feed applied'),
      book_updated_at_ms: U53('timestamp of that block, ms'),
      stale: Type.Boolean({ description: 'the feed has not advanced for longer than its staleness bound' }),
      ready: Type.Literal(true),
      data,
    },
    'the hot-read wrapper (docs/websocket.md#hot-read-rest)',
  )

export const CandleSchema = Strict(
  {
    t: U53('bucket open time, ms'),
    T: U53('bucket close time, ms'),
    s: Type.String({ description: 'symbol' }),
    i: Type.String({ description: 'interval' }),
    o: DecimalString('open'),
    c: DecimalString('close'),
    h: DecimalString('high'),
    l: DecimalString('low'),
    v: DecimalString('volume (sz precision)'),
    n: Type.Integer({ minimum: 0, description: 'fills' }),
  },
  'a candle (docs/history-api.md#candles)',
)

const Level = Strict(
  {
    price: DecimalString('price of the level (px precision)'),
    qty: DecimalString('size resting at the level (sz precision)'),
    cumulative_qty: DecimalString('size from the best level through this one (sz precision)'),
  },
  'an aggregated price level',
)

export const HotOrderbookSchema = Strict(
  {
    symbol: Type.String(),
    height: U53('height of the book'),
    state_hash: Type.String({ pattern: '^0x[0-9a-f]{64}$', description: 'hash of the levels' }),
    source: Type.Literal('chain-events'),
    bids: Type.Array(Level, { description: 'best first' }),
    asks: Type.Array(Level, { description: 'best first' }),
  },
  'OrderbookSnapshot',
)

export const RecentTradeSchema = Strict(
  {
    block_height: U53('block of the fill'),
    event_seq: U53('event sequence in the block'),
    timestamp_ms: U53('block timestamp, ms'),
    market_id: U32('the market'),
    symbol: Type.String(),
    price: DecimalString('price'),
    qty: DecimalString('size'),
    notional: DecimalString('price × size'),
    side: Type.Union([Type.Literal('Bid'), Type.Literal('Ask')], { description: 'the taker side' }),
  },
  'RecentTrade',
)

export const HotMarketInfoSchema = Strict({
  market_id: U32('the market'),
  symbol: Type.String(),
  price_decimals: U32('px precision'),
  size_decimals: U32('sz precision'),
})

export const HotSummarySchema = Type.Omit(MarketSummaryResult, ['market_id'], { additionalProperties: false, description: 'MarketSummary' })

/** The body of both probes (docs/operations.md#health). */
export const HealthBodySchema = Type.Object(
  {
    status: Type.String({ description: 'ok, or the problem: see docs/operations.md#health' }),
    height: U53('the chain tip'),
    store_dirty: Type.Boolean(),
    reasons: Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'the problems' }),
    replayed_height: Type.Optional(U53('recovering: blocks replayed')),
    target_height: Type.Optional(U53('recovering: the height recovery reaches')),
    blocks_per_sec: Type.Optional(Type.Number()),
    eta_ms: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    replication: Type.Optional(
      Strict(
        {
          role: Type.Union([Type.Literal('leader'), Type.Literal('follower'), Type.Literal('candidate')]),
          leader_url: Type.Union([Type.String(), Type.Null()], { description: 'where /action is forwarded; null while no node leads' }),
          lag_blocks: U53('blocks the stream holds beyond this node'),
          stream: Type.String({ description: 'the JetStream stream of the chain' }),
          last_verified_height: U53('the newest block this node verified or produced'),
        },
        'a node of a replicated chain (docs/replication.md#health-and-metrics)',
      ),
    ),
  },
  { additionalProperties: false, description: 'the health body (docs/operations.md#health)' },
)

const orNull = (s: TSchema) => Type.Union([s, Type.Null()])

export const StatusSchema = Strict(
  {
    watermark: orNull(U53('last block ingested')),
    block_count: U53('blocks stored'),
    node_tip: U53('the chain tip'),
    behind: Type.Integer({ description: 'blocks the index is behind the tip' }),
    envelope_total: U53('envelopes stored'),
    derive_watermark: orNull(U53('last block derived')),
    derive_lag_blocks: Type.Integer(),
    derive_index_version: orNull(Type.String({ description: 'version of the derived index' })),
    candle_watermark: orNull(U53('last block folded into candles')),
    candle_lag_blocks: Type.Integer(),
    stats_watermark: orNull(U53('last block folded into stats')),
    stats_lag_blocks: Type.Integer(),
    hot_feed: Strict({
      native_ready: Type.Boolean(),
      ext_ready: Type.Boolean(),
      stale: Type.Boolean(),
      chain_height: U53('hot feed height'),
      book_updated_at_ms: U53('hot feed block time'),
    }),
    markets: Strict({ native: U32('native markets'), external_peg: U32('external-peg markets') }),
  },
  'GET /api/v1/status (docs/history-api.md#status)',
)
