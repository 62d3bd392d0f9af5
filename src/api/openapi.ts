// The node's OpenAPI 3.1 document (GET /api/v1/openapi.json) and its page (GET /api/v1/docs): a route
// table with the TypeBox schemas of every REST route's path and query parameters, bodies and
// replies. The routes keep validating their parameters by hand (their 400/404/500 bodies are
// docs/errors.md#http-statuses); the query schemas here document the same rules. The reply schemas
// reuse the JSON-RPC result schemas (src/wire/results/) where a route mirrors a method.
// test/e2e/openapi.test.ts checks that every served route is in the table and that real replies
// match their documented schemas.
import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import { OFFSET_MAX } from '../indexer/paging.ts'
import { LEADERBOARD_METRICS, LEADERBOARD_PERIODS, LEADERBOARD_SIZE_MAX } from '../indexer/tables/leaderboard.ts'
import { buildOpenApi, type OpenApiDocument, openApiHtml, type ResponseDoc, type RouteDoc } from '../lib/openapi.ts'
import { ActionParamsSchema, JsonRpcRequestSchema } from '../wire/envelope.ts'
import { AccountResult, ExchangeStatsResult, OrderbookResult } from '../wire/results/chain.ts'
import { Nullable, Strict } from '../wire/results/common.ts'
import {
  AccountStatsSchema,
  BridgeFlowSchema,
  FillRecordSchema,
  FundFlowSchema,
  HistoryEventViewSchema,
  LeaderboardSchema,
  OrderHistoryRecordSchema,
  PositionChangeSchema,
  RebateEventSchema,
  ReferralEventSchema,
  SearchHitSchema,
  TxViewSchema,
} from '../wire/results/history-rows.ts'
import { BboItemSchema, MarketDetailResult, MarketSummaryResult, MarksResult } from '../wire/results/market.ts'
import { OpenOrderViewSchema } from '../wire/results/shared-account.ts'
import { BlockHeaderSchema, EnvelopeViewSchema } from '../wire/results/shared-block.ts'
import { DecimalString, U32, U53 } from '../wire/schema-types.ts'
import { PageSchema } from './methods/registry.ts'
import { CANDLES_LIMIT_DEFAULT, CANDLES_LIMIT_MAX } from './routes/candle-routes.ts'
import { TRADES_LIMIT_DEFAULT, TRADES_LIMIT_MAX } from './routes/feed-routes.ts'
import { PAGING, type PagingSpec } from './routes/history-params.ts'
import { WS_PATH } from './ws/routes.ts'

export const OPENAPI_PATH = '/api/v1/openapi.json'
export const DOCS_PATH = '/api/v1/docs'

// --- shared pieces ---------------------------------------------------------------------------

const ErrorBody = Type.Object(
  { error: Type.String({ description: 'what went wrong' }) },
  { description: 'an error (docs/errors.md#http-statuses)' },
)
const GateBody = Type.Object(
  {
    error: Type.String(),
    reason: Type.Union([Type.Literal('RECOVERING'), Type.Literal('HALTED')]),
    retry_after_ms: U53('wait this long before retrying'),
    message: Type.String(),
  },
  { description: 'the node is recovering or halted (docs/operations.md#health); Retry-After says when to come back' },
)
const err = (description: string): ResponseDoc => ({ description, schema: ErrorBody })
const gate: ResponseDoc = { description: 'recovering or halted (docs/operations.md#health)', schema: GateBody }
const json = (description: string, schema: TSchema): ResponseDoc => ({ description, schema })

/** Query strings carry text: an integer parameter is a string of digits. */
const IntText = (description: string) => Type.String({ pattern: '^\\d{1,16}$', description })
const BoolText = (description: string) => Type.String({ description: `${description}: true or 1 turns it on` })
const AddressText = (description: string) => Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description })
const Opt = Type.Optional
const Query = (props: Record<string, TSchema>) => Type.Object(props, { additionalProperties: true })
const SymbolParam = Type.Object({ symbol: Type.String({ minLength: 1, description: 'symbol or base-asset prefix, case-insensitive' }) })

/** offset / limit / cursor / include_total of a history list (docs/history-api.md#conventions-all-history-rest-endpoints). */
const paging = (spec: PagingSpec) => ({
  offset: Opt(
    IntText(`rows to skip, default 0${spec.cursorParts === undefined ? '' : ` (at most ${OFFSET_MAX}; deeper pages use cursor)`}`),
  ),
  limit: Opt(IntText(`rows per page, default ${spec.limitDefault}, clamped to 1..${spec.limitMax}`)),
  ...(spec.cursorParts === undefined
    ? {}
    : { cursor: Opt(Type.String({ description: 'next_cursor of the previous page; takes precedence over offset' })) }),
  include_total: Opt(BoolText('count the rows in all (page.total)')),
})
const marketQuery = {
  market_id: Opt(IntText('the market; takes precedence over symbol')),
  symbol: Opt(Type.String({ description: 'symbol or base-asset prefix; an unknown symbol is 404' })),
}

/** The REST page: total only with include_total; next_cursor on cursor endpoints. */
const RestPage = Type.Object(
  {
    offset: U53('rows skipped before this page'),
    limit: U53('rows this page may hold'),
    total: Opt(Type.Union([U53('rows in all'), Type.Null()])),
    next_cursor: Opt(
      Type.Union([Type.String(), Type.Null()], { description: 'pass as cursor to read the next page; null on the last page' }),
    ),
    has_more: Type.Boolean({ description: 'true when rows follow this page' }),
  },
  { additionalProperties: false },
)
const pagedOf = (row: TSchema) => Type.Object({ data: Type.Array(row), page: RestPage }, { additionalProperties: false })

const ChainWrapped = (data: TSchema) =>
  Strict({ height: U53('height of the chain state the data was read at'), data }, 'the chain wrapper {height, data}')
const HotWrapped = (data: TSchema) =>
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
const hotErrors = { '404': err('market not found'), '503': err('market feed seeding (Retry-After: 2), or the node is gated') }

const CandleSchema = Strict(
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
const HotOrderbook = Strict(
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
const RecentTradeSchema = Strict(
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
const HotMarketInfo = Strict({
  market_id: U32('the market'),
  symbol: Type.String(),
  price_decimals: U32('px precision'),
  size_decimals: U32('sz precision'),
})
const HotSummary = Type.Omit(MarketSummaryResult, ['market_id'], { additionalProperties: false, description: 'MarketSummary' })

const HealthBodySchema = Type.Object(
  {
    status: Type.String({ description: 'ok, or the problem: see docs/operations.md#health' }),
    height: U53('the chain tip'),
    store_dirty: Type.Boolean(),
    reasons: Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'the problems' }),
    replayed_height: Opt(U53('recovering: blocks replayed')),
    target_height: Opt(U53('recovering: the height recovery reaches')),
    blocks_per_sec: Opt(Type.Number()),
    eta_ms: Opt(Type.Union([Type.Number(), Type.Null()])),
  },
  { additionalProperties: false, description: 'the health body (docs/operations.md#health)' },
)
const orNull = (s: TSchema) => Type.Union([s, Type.Null()])
const StatusSchema = Strict(
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

// --- JSON-RPC envelopes (docs/rpc.md#requests-and-replies, docs/protocol.md#envelope) ---------------

const RpcId = Type.Union([Type.String(), Type.Integer(), Type.Null()])
const RpcError = Type.Object(
  { code: Type.Integer(), message: Type.String(), data: Opt(Type.Object({}, { additionalProperties: true })) },
  { additionalProperties: false },
)
const RpcFailure = Type.Object({ jsonrpc: Type.Literal('2.0'), id: RpcId, error: RpcError }, { additionalProperties: false })
/** The /query result wrapper: every method's data with its heights (docs/rpc.md#requests-and-replies). */
export const QueryResultSchema = Type.Object(
  {
    height: U53('height of the data'),
    chain_height: U53('the chain tip'),
    stale: Type.Boolean(),
    data: Type.Unknown({ description: "the method's result: its schema is in rpc.discover and docs/rpc.md" }),
    page: Opt(PageSchema),
  },
  { additionalProperties: false },
)
const QuerySuccess = Type.Object({ jsonrpc: Type.Literal('2.0'), id: RpcId, result: QueryResultSchema }, { additionalProperties: false })
const DiscoverSuccess = Type.Object(
  { jsonrpc: Type.Literal('2.0'), id: RpcId, result: Type.Object({ openrpc: Type.String() }, { additionalProperties: true }) },
  { additionalProperties: false },
)
const QueryReply = Type.Union([QuerySuccess, DiscoverSuccess, RpcFailure])
export const QueryReplySchema = Type.Union([QueryReply, Type.Array(QueryReply)], { description: 'one reply, or one per item of a batch' })
const QueryRequest = Type.Object(
  { ...JsonRpcRequestSchema.properties, params: Opt(Type.Object({}, { additionalProperties: true, description: 'the method params' })) },
  { description: 'a JSON-RPC 2.0 request; without id a notification (no reply)' },
)
const QueryBody = Type.Union([QueryRequest, Type.Array(QueryRequest, { minItems: 1, maxItems: 20 })])
const ActionRequest = Type.Object(
  { jsonrpc: Type.Literal('2.0'), id: Opt(RpcId), method: Type.Literal('action'), params: ActionParamsSchema },
  { description: 'one signed action (docs/protocol.md#envelope)' },
)
const ActionSuccess = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: RpcId,
    result: Type.Object({}, { additionalProperties: true, description: 'the outcome (docs/protocol.md)' }),
  },
  { additionalProperties: false },
)
export const ActionReplySchema = Type.Union([ActionSuccess, RpcFailure])

// --- the table --------------------------------------------------------------------------------

const history = (path: string, summary: string, query: TObject, data: TSchema, more: Partial<RouteDoc> = {}): RouteDoc => ({
  method: 'GET',
  path,
  summary,
  tags: ['history'],
  query,
  responses: {
    '200': json('the rows and their page', data),
    '400': err('a malformed parameter'),
    '404': err('an unknown market'),
    '500': err('a missing required parameter (docs/errors.md#http-statuses)'),
    '503': err('the history index is not running, or the node is gated'),
  },
  ...more,
})
const account = { account: AddressText('the account (required)') }
const roleQuery = { role: Opt(Type.Union([Type.Literal('inviter'), Type.Literal('invitee')])) }

export const NODE_ROUTES: readonly RouteDoc[] = [
  {
    method: 'GET',
    path: '/api/v1/health',
    summary: 'Readiness probe: 200 only when the node is ok',
    tags: ['health'],
    responses: { '200': json('ready', HealthBodySchema), '503': json('not ready: same body', HealthBodySchema) },
  },
  {
    method: 'GET',
    path: '/api/v1/health/live',
    summary: 'Liveness probe: 200 unless halted',
    tags: ['health'],
    responses: { '200': json('alive', HealthBodySchema), '503': json('halted: same body', HealthBodySchema) },
  },
  {
    method: 'GET',
    path: '/metrics',
    summary: 'Prometheus metrics (docs/operator.md#metrics)',
    tags: ['health'],
    responses: { '200': { description: 'the Prometheus text format', contentType: 'text/plain', schema: Type.String() } },
  },
  {
    method: 'GET',
    path: '/api/v1/status',
    summary: 'Index watermarks, lags and the hot feed state',
    tags: ['health'],
    responses: { '200': json('the status', StatusSchema), '503': gate },
  },
  {
    method: 'POST',
    path: '/api/v1/query',
    summary: 'JSON-RPC 2.0 reads; batches of up to 20 (docs/rpc.md)',
    description: 'The methods, their params and result schemas: rpc.discover (OpenRPC) and docs/rpc.md. Notifications only: 204.',
    tags: ['json-rpc'],
    body: QueryBody,
    responses: {
      '200': json('one reply, or one per request of a batch', QueryReplySchema),
      '204': { description: 'only notifications' },
      '400': json('a single request answered with an HTTP status (offset above 1000)', RpcFailure),
      '503': json('recovering or halted: -32000 per request', Type.Union([RpcFailure, Type.Array(RpcFailure)])),
    },
  },
  {
    method: 'POST',
    path: '/api/v1/action',
    summary: 'Submit one signed action; replies after its block commits (docs/protocol.md#envelope)',
    tags: ['json-rpc'],
    body: ActionRequest,
    responses: {
      '200': json('the outcome, or a JSON-RPC error', ActionReplySchema),
      '204': { description: 'a notification (no id)' },
      '413': json('the body is too large', RpcFailure),
      '429': json('rate limited', RpcFailure),
      '503': json('recovering or halted', RpcFailure),
    },
  },
  {
    method: 'GET',
    path: '/api/v1/markets/:symbol',
    summary: 'A market (getMarket) with the chain wrapper',
    tags: ['chain'],
    params: SymbolParam,
    responses: {
      '200': json('the market', ChainWrapped(MarketDetailResult)),
      '400': err('bad symbol'),
      '404': err('market not found'),
      '503': gate,
    },
  },
  {
    method: 'GET',
    path: '/api/v1/orderbook/:symbol',
    summary: 'The chain order book (getOrderbook) with the chain wrapper',
    tags: ['chain'],
    params: SymbolParam,
    query: Query({ depth: Opt(IntText('levels per side')) }),
    responses: {
      '200': json('the book', ChainWrapped(OrderbookResult)),
      '400': err('bad depth'),
      '404': err('market not found'),
      '503': gate,
    },
  },
  {
    method: 'GET',
    path: '/api/v1/stats',
    summary: 'Exchange statistics (getExchangeStats) with the chain wrapper',
    tags: ['chain'],
    responses: { '200': json('the statistics', ChainWrapped(ExchangeStatsResult)), '503': gate },
  },
  {
    method: 'GET',
    path: '/api/v1/market/orderbook/:symbol',
    summary: 'Hot-read order book snapshot',
    tags: ['hot-read'],
    params: SymbolParam,
    query: Query({ depth: Opt(Type.String({ pattern: '^\\d{1,9}$', description: 'levels per side; 0 or absent: the maximum' })) }),
    responses: { '200': json('the snapshot', HotWrapped(HotOrderbook)), '400': err('bad depth'), ...hotErrors },
  },
  {
    method: 'GET',
    path: '/api/v1/market/trades/:symbol',
    summary: 'Hot-read recent trades, newest first',
    tags: ['hot-read'],
    params: SymbolParam,
    query: Query({
      offset: Opt(Type.String({ pattern: '^\\d{1,9}$', description: 'trades to skip' })),
      limit: Opt(Type.String({ pattern: '^\\d{1,9}$', description: `default ${TRADES_LIMIT_DEFAULT}, at most ${TRADES_LIMIT_MAX}` })),
    }),
    responses: { '200': json('the trades', HotWrapped(Type.Array(RecentTradeSchema))), '400': err('bad offset or limit'), ...hotErrors },
  },
  {
    method: 'GET',
    path: '/api/v1/markets/:symbol/summary',
    summary: 'Hot-read market summary',
    tags: ['hot-read'],
    params: SymbolParam,
    responses: { '200': json('the summary', HotWrapped(HotSummary)), ...hotErrors },
  },
  {
    method: 'GET',
    path: '/api/v1/bbos',
    summary: 'Hot-read best bid and offer of every market',
    tags: ['hot-read'],
    responses: { '200': json('BboItem[] by symbol', HotWrapped(Type.Array(BboItemSchema))), '503': hotErrors['503'] },
  },
  {
    method: 'GET',
    path: '/api/v1/marks',
    summary: 'Hot-read mark prices',
    tags: ['hot-read'],
    responses: { '200': json('MarksMap', HotWrapped(MarksResult)), '503': hotErrors['503'] },
  },
  {
    method: 'GET',
    path: '/api/v1/markets',
    summary: 'Hot-read market list',
    tags: ['hot-read'],
    responses: { '200': json('the markets', HotWrapped(Type.Array(HotMarketInfo))), '503': hotErrors['503'] },
  },
  history('/api/v1/blocks', 'Blocks, newest first', Query(paging(PAGING.blocks)), pagedOf(BlockHeaderSchema)),
  history(
    '/api/v1/blocks/:id',
    'A block by height or hash',
    Query({}),
    Type.Object({ data: BlockHeaderSchema }, { additionalProperties: false }),
    {
      params: Type.Object({ id: Type.String({ description: 'height or 0x block hash' }) }),
    },
  ),
  history(
    '/api/v1/blocks/:id/events',
    'Events of a block',
    Query(paging(PAGING.blockEvents)),
    Type.Object(
      { data: Type.Array(HistoryEventViewSchema), page: Type.Omit(RestPage, ['next_cursor'], { additionalProperties: false }) },
      { additionalProperties: false },
    ),
    {
      params: Type.Object({ id: Type.String({ pattern: '^\\d{1,16}$', description: 'numeric height' }) }),
    },
  ),
  history(
    '/api/v1/blocks/:id/envelopes',
    'Envelopes of a block',
    Query({}),
    Type.Object({ data: Type.Array(EnvelopeViewSchema) }, { additionalProperties: false }),
    { params: Type.Object({ id: Type.String({ pattern: '^\\d{1,16}$', description: 'numeric height' }) }) },
  ),
  history(
    '/api/v1/envelopes',
    'Envelopes, newest first',
    Query({
      signer: Opt(AddressText('the signer')),
      action_kind: Opt(Type.String({ description: 'an action kind' })),
      market_id: Opt(IntText('the market')),
      from_block: Opt(IntText('first block')),
      to_block: Opt(IntText('last block')),
      ...paging(PAGING.envelopes),
    }),
    pagedOf(EnvelopeViewSchema),
  ),
  history(
    '/api/v1/tx/:hash',
    'A transaction by hash',
    Query({}),
    Type.Object({ data: TxViewSchema, source: Type.Literal('local') }, { additionalProperties: false }),
    { params: Type.Object({ hash: Type.String({ description: '0x and 64 hex digits' }) }) },
  ),
  history(
    '/api/v1/fills',
    'Fills of an account',
    Query({
      ...account,
      ...marketQuery,
      from_block: Opt(IntText('first block')),
      to_block: Opt(IntText('last block')),
      ...paging(PAGING.fills),
    }),
    pagedOf(FillRecordSchema),
  ),
  history(
    '/api/v1/orders',
    'Orders of an owner',
    Query({
      owner: AddressText('the owner (required)'),
      ...marketQuery,
      include_open: Opt(BoolText('include open orders')),
      ...paging(PAGING.orders),
    }),
    pagedOf(OrderHistoryRecordSchema),
  ),
  history(
    '/api/v1/fund-flows',
    'Deposits, withdrawals and transfers of an account',
    Query({ ...account, flow_type: Opt(Type.String({ description: 'one flow type' })), ...paging(PAGING.accountRows) }),
    pagedOf(FundFlowSchema),
  ),
  history(
    '/api/v1/bridge-flows',
    'Bridge deposits and withdrawals of an account',
    Query({ ...account, direction: Opt(Type.Union([Type.Literal('deposit'), Type.Literal('withdraw')])), ...paging(PAGING.accountRows) }),
    pagedOf(BridgeFlowSchema),
  ),
  history(
    '/api/v1/positions',
    'Position history of an account',
    Query({ ...account, ...marketQuery, ...paging(PAGING.accountRows) }),
    pagedOf(PositionChangeSchema),
  ),
  history(
    '/api/v1/referral/events',
    'Referral events',
    Query({ ...account, ...roleQuery, ...paging(PAGING.accountRows) }),
    pagedOf(ReferralEventSchema),
  ),
  history(
    '/api/v1/rebate/events',
    'Rebate events',
    Query({ ...account, ...roleQuery, ...paging(PAGING.accountRows) }),
    pagedOf(RebateEventSchema),
  ),
  history(
    '/api/v1/account/events',
    'Account events',
    Query({ ...account, sub_kind: Opt(Type.String({ description: 'one sub kind' })), ...paging(PAGING.accountRows) }),
    pagedOf(HistoryEventViewSchema),
  ),
  history(
    '/api/v1/account-stats',
    'Trading statistics of an account',
    Query(account),
    Type.Object(
      { data: Nullable(AccountStatsSchema, 'null when the account has none'), stats_watermark: orNull(U53('stats watermark')) },
      { additionalProperties: false },
    ),
  ),
  history(
    '/api/v1/leaderboard',
    'Leaderboard',
    Query({
      metric: Opt(
        Type.Union(
          LEADERBOARD_METRICS.map((m) => Type.Literal(m)),
          { description: 'default pnl' },
        ),
      ),
      period: Opt(
        Type.Union(
          LEADERBOARD_PERIODS.map((p) => Type.Literal(p)),
          { description: 'default all' },
        ),
      ),
      limit: Opt(IntText(`rows, default 50, at most ${LEADERBOARD_SIZE_MAX}`)),
    }),
    LeaderboardSchema,
  ),
  history(
    '/api/v1/search',
    'Search accounts, blocks, transactions and markets',
    Query({ q: Type.String({ description: 'the text (required; first 80 characters)' }) }),
    Type.Object(
      { data: Type.Array(SearchHitSchema), page: Strict({ offset: U53('0'), limit: U53('hits') }) },
      { additionalProperties: false },
    ),
  ),
  history(
    '/api/v1/chain/account',
    'The live account view (getAccount) with the chain wrapper',
    Query({ address: AddressText('the account (required)') }),
    ChainWrapped(AccountResult),
  ),
  history(
    '/api/v1/chain/open-orders',
    'Open orders of an account from the live chain',
    Query({ address: AddressText('the account (required)'), ...marketQuery, ...paging(PAGING.openOrders) }),
    Type.Object(
      {
        height: U53('the chain tip'),
        data: Type.Array(OpenOrderViewSchema),
        page: Type.Omit(RestPage, ['next_cursor'], { additionalProperties: false }),
      },
      { additionalProperties: false, description: 'open orders in order id order' },
    ),
  ),
  history(
    '/api/v1/candles',
    'Candles of a market, ascending by t',
    Query({
      symbol: Type.String({ description: 'the market (required)' }),
      interval: Opt(Type.String({ description: 'a candle interval (docs/history-api.md#candles)' })),
      from: Opt(IntText('first bucket, ms; pages forward')),
      to: Opt(IntText('last bucket, ms')),
      limit: Opt(IntText(`default ${CANDLES_LIMIT_DEFAULT}, at most ${CANDLES_LIMIT_MAX}`)),
    }),
    Type.Array(CandleSchema),
  ),
  {
    method: 'POST',
    path: '/info',
    summary: 'candleSnapshot: candles of a market, ascending by t (docs/history-api.md#candles)',
    tags: ['history'],
    body: Type.Object({
      type: Type.Literal('candleSnapshot'),
      req: Type.Object({
        coin: Type.String({ minLength: 1, description: 'the market' }),
        interval: Type.String({ description: 'a candle interval' }),
        startTime: Opt(U53('first bucket, ms')),
        endTime: Opt(U53('last bucket, ms')),
      }),
    }),
    responses: {
      '200': json('the candles; [] for an unknown market', Type.Array(CandleSchema)),
      '400': err('not JSON, an unknown type or a bad field'),
      '413': err('the body is too large'),
      '500': err('req.coin missing'),
    },
  },
  {
    method: 'GET',
    path: WS_PATH,
    summary: 'WebSocket upgrade (docs/websocket.md)',
    tags: ['websocket'],
    responses: { '101': { description: 'switching protocols' }, '503': gate },
  },
  {
    method: 'GET',
    path: OPENAPI_PATH,
    summary: 'This OpenAPI 3.1 document',
    tags: ['docs'],
    responses: { '200': json('the document', Type.Object({ openapi: Type.Literal('3.1.0') }, { additionalProperties: true })) },
  },
  {
    method: 'GET',
    path: DOCS_PATH,
    summary: 'A page that renders this document',
    tags: ['docs'],
    responses: { '200': { description: 'HTML', contentType: 'text/html', schema: Type.String() } },
  },
]

let cached: OpenApiDocument | undefined
export function nodeOpenApi(version = '0.1.0'): OpenApiDocument {
  cached ??= buildOpenApi(
    { title: 'perpd node', version, description: 'The REST and JSON-RPC HTTP API of a perpd node. WebSocket frames: docs/websocket.md.' },
    NODE_ROUTES,
  )
  return cached
}

/** GET /api/v1/openapi.json and GET /api/v1/docs. */
export function openApiRoutes() {
  return new Elysia()
    .get(OPENAPI_PATH, () => Response.json(nodeOpenApi()))
    .get(
      DOCS_PATH,
      () => new Response(openApiHtml(nodeOpenApi(), OPENAPI_PATH), { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    )
}
