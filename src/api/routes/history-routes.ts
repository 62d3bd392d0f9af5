// The history / index REST family (docs/history-api.md): blocks, envelopes, transactions,
// fills, orders, flows, positions, referral and rebate events, account events and stats, the
// leaderboard, search, and two live-chain views (/chain/account, /chain/open-orders). Every index
// read runs on the reader thread; responses are {data, page}
// (docs/history-api.md#conventions-all-history-rest-endpoints). HISTORY_ROUTES declares each route
// once (rest-route.ts): its parameters, in the order they are checked, and its replies.
import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import { resolveMarketRef } from '../../chain/index.ts'
import type { HistoryIndex } from '../../indexer/history-index.ts'
import { ReadError } from '../../indexer/paging.ts'
import type { PagedOp, ReadArgs } from '../../indexer/read/ops.ts'
import { INDEX_VERSION } from '../../indexer/schema.ts'
import { LEADERBOARD_METRICS, LEADERBOARD_PERIODS, LEADERBOARD_SIZE_MAX } from '../../indexer/tables/leaderboard.ts'
import type { RouteDoc } from '../../lib/openapi.ts'
import type { ChainNode } from '../../node/chain-node.ts'
import { AccountResult } from '../../wire/results/chain.ts'
import { Nullable, Strict } from '../../wire/results/common.ts'
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
} from '../../wire/results/history-rows.ts'
import { ChainWrapped, OffsetPage, pagedOf, StatusSchema } from '../../wire/results/rest.ts'
import { OpenOrderViewSchema } from '../../wire/results/shared-account.ts'
import { BlockHeaderSchema, EnvelopeViewSchema } from '../../wire/results/shared-block.ts'
import { U53 } from '../../wire/schema-types.ts'
import { historyOf } from '../history-link.ts'
import { jsonResponse } from '../jsonrpc.ts'
import { accountView, openOrderView } from '../views/account-view.ts'
import { feedRuntime } from '../ws/runtime.ts'
import { cursorPaging, offsetPaging, PAGING, pageRequest } from './history-params.ts'
import { AddressQuery, EnumQuery, FlagQuery, IntQuery, Opt, TextQuery } from './query-params.ts'
import { errorReply, GATE_REPLY, jsonReply, type RouteTable, serveRoutes } from './rest-route.ts'

export function requireHistory(node: ChainNode): HistoryIndex {
  const h = historyOf(node)
  if (h === undefined) throw new ReadError(503, 'the history index is not running')
  return h
}

/** A paged read answered as {data, page}, serialized on the reader thread. */
const paged = async <K extends PagedOp>(node: ChainNode, op: K, args: ReadArgs<K>) =>
  new Response(await requireHistory(node).readPagedJson(op, args), { headers: { 'content-type': 'application/json' } })

/** A market_id filter, by market_id or by symbol (resolved as docs/markets.md#symbol-resolution says); unknown symbol is 404. */
function marketFilter(node: ChainNode, q: { market_id?: number; symbol?: string }): number | undefined {
  if (q.market_id !== undefined) return q.market_id
  if (q.symbol === undefined) return undefined
  const m = resolveMarketRef(node.state, { symbol: q.symbol })
  if (m === undefined) throw new ReadError(404, `market ${q.symbol.slice(0, 20)} not found`)
  return m.marketId
}

/** The body of GET /api/v1/status, fields in the order docs/history-api.md#status lists them. */
export async function statusBody(node: ChainNode) {
  const tip = node.state.height
  const h = historyOf(node)
  const p = h === undefined ? undefined : await h.sync(tip)
  const wm = p?.watermarks ?? { ingest: 0, derive: 0, candle: 0, stats: 0 }
  const orNull = (n: number) => (n > 0 ? n : null)
  const watermark = orNull(wm.ingest)
  let native = 0
  let externalPeg = 0
  for (const m of node.state.markets.values()) {
    if (m.lifecycle === 'Delisted') continue
    if (m.routing === 'external_peg') externalPeg++
    else native++
  }
  return {
    watermark,
    block_count: p?.blockCount ?? 0,
    node_tip: tip,
    behind: watermark === null ? tip + 1 : tip - watermark,
    envelope_total: p?.envelopeTotal ?? 0,
    derive_watermark: orNull(wm.derive),
    derive_lag_blocks: wm.ingest - wm.derive,
    derive_index_version: h === undefined ? null : INDEX_VERSION,
    candle_watermark: orNull(wm.candle),
    candle_lag_blocks: wm.derive - wm.candle,
    stats_watermark: orNull(wm.stats),
    stats_lag_blocks: wm.derive - wm.stats,
    hot_feed: feedRuntime(node).feed.status(),
    markets: { native, external_peg: externalPeg },
  }
}

// --- the declarations ------------------------------------------------------------------------

const MARKET_ID_MAX = 4_294_967_295
const marketQuery = {
  market_id: Opt(IntQuery('the market; takes precedence over symbol', MARKET_ID_MAX)),
  symbol: Opt(TextQuery('symbol or base-asset prefix; an unknown symbol is 404')),
}
const accountQuery = { account: AddressQuery('the account (required)') }
const blockRange = { from_block: Opt(IntQuery('first block')), to_block: Opt(IntQuery('last block')) }
const roleQuery = { role: Opt(EnumQuery(['inviter', 'invitee'] as const)) }
const HeightParams = Type.Object({
  id: Type.String({
    pattern: '^\\d{1,16}$',
    description: 'numeric height',
    invalid: (_name: string, sent: string) => `block ${sent.slice(0, 80)}: this path takes a numeric height`,
  }),
})

/** A GET of the family with its replies: the rows, a malformed parameter, an unknown market or block, a missing parameter, no index. */
const history = <Q extends TObject>(path: string, summary: string, query: Q, data: TSchema) =>
  ({
    method: 'GET',
    path,
    summary,
    tags: ['history'],
    query,
    responses: {
      '200': jsonReply('the rows and their page', data),
      '400': errorReply('a malformed parameter'),
      '404': errorReply('an unknown market'),
      '500': errorReply('a missing required parameter (docs/errors.md#http-statuses)'),
      '503': errorReply('the history index is not running, or the node is gated'),
    },
  }) as const satisfies RouteDoc

export const HISTORY_ROUTES = {
  status: {
    method: 'GET',
    path: '/api/v1/status',
    summary: 'Index watermarks, lags and the hot feed state',
    tags: ['health'],
    responses: { '200': jsonReply('the status', StatusSchema), '503': GATE_REPLY },
  },
  blocks: history('/api/v1/blocks', 'Blocks, newest first', Type.Object(cursorPaging(PAGING.blocks)), pagedOf(BlockHeaderSchema)),
  block: {
    ...history(
      '/api/v1/blocks/:id',
      'A block by height or hash',
      Type.Object({}),
      Type.Object({ data: BlockHeaderSchema }, { additionalProperties: false }),
    ),
    params: Type.Object({ id: Type.String({ description: 'height or 0x block hash' }) }),
  },
  blockEvents: {
    ...history(
      '/api/v1/blocks/:id/events',
      'Events of a block',
      Type.Object(offsetPaging(PAGING.blockEvents)),
      Type.Object({ data: Type.Array(HistoryEventViewSchema), page: OffsetPage }, { additionalProperties: false }),
    ),
    params: HeightParams,
  },
  blockEnvelopes: {
    ...history(
      '/api/v1/blocks/:id/envelopes',
      'Envelopes of a block',
      Type.Object({}),
      Type.Object({ data: Type.Array(EnvelopeViewSchema) }, { additionalProperties: false }),
    ),
    params: HeightParams,
  },
  envelopes: history(
    '/api/v1/envelopes',
    'Envelopes, newest first',
    Type.Object({
      signer: Opt(AddressQuery('the signer')),
      action_kind: Opt(TextQuery('an action kind')),
      market_id: marketQuery.market_id,
      ...blockRange,
      ...cursorPaging(PAGING.envelopes),
    }),
    pagedOf(EnvelopeViewSchema),
  ),
  tx: {
    ...history(
      '/api/v1/tx/:hash',
      'A transaction by hash',
      Type.Object({}),
      Type.Object({ data: TxViewSchema, source: Type.Literal('local') }, { additionalProperties: false }),
    ),
    params: Type.Object({
      hash: Type.String({
        pattern: '^0[xX][0-9a-fA-F]{64}$',
        description: '0x and 64 hex digits',
        invalid: () => 'a tx hash is 0x and 64 hex digits',
      }),
    }),
  },
  fills: history(
    '/api/v1/fills',
    'Fills of an account',
    Type.Object({ ...accountQuery, ...marketQuery, ...blockRange, ...cursorPaging(PAGING.fills) }),
    pagedOf(FillRecordSchema),
  ),
  orders: history(
    '/api/v1/orders',
    'Orders of an owner',
    Type.Object({
      owner: AddressQuery('the owner (required)'),
      ...marketQuery,
      include_open: Opt(FlagQuery('include open orders')),
      ...cursorPaging(PAGING.orders),
    }),
    pagedOf(OrderHistoryRecordSchema),
  ),
  fundFlows: history(
    '/api/v1/fund-flows',
    'Deposits, withdrawals and transfers of an account',
    Type.Object({ ...accountQuery, flow_type: Opt(TextQuery('one flow type')), ...cursorPaging(PAGING.accountRows) }),
    pagedOf(FundFlowSchema),
  ),
  bridgeFlows: history(
    '/api/v1/bridge-flows',
    'Bridge deposits and withdrawals of an account',
    Type.Object({ ...accountQuery, direction: Opt(EnumQuery(['deposit', 'withdraw'] as const)), ...cursorPaging(PAGING.accountRows) }),
    pagedOf(BridgeFlowSchema),
  ),
  positions: history(
    '/api/v1/positions',
    'Position history of an account',
    Type.Object({ ...accountQuery, ...marketQuery, ...cursorPaging(PAGING.accountRows) }),
    pagedOf(PositionChangeSchema),
  ),
  referralEvents: history(
    '/api/v1/referral/events',
    'Referral events',
    Type.Object({ ...accountQuery, ...roleQuery, ...cursorPaging(PAGING.accountRows) }),
    pagedOf(ReferralEventSchema),
  ),
  rebateEvents: history(
    '/api/v1/rebate/events',
    'Rebate events',
    Type.Object({ ...accountQuery, ...roleQuery, ...cursorPaging(PAGING.accountRows) }),
    pagedOf(RebateEventSchema),
  ),
  accountEvents: history(
    '/api/v1/account/events',
    'Account events',
    Type.Object({ ...accountQuery, sub_kind: Opt(TextQuery('one sub kind')), ...cursorPaging(PAGING.accountRows) }),
    pagedOf(HistoryEventViewSchema),
  ),
  accountStats: history(
    '/api/v1/account-stats',
    'Trading statistics of an account',
    Type.Object(accountQuery),
    Type.Object(
      {
        data: Nullable(AccountStatsSchema, 'null when the account has none'),
        stats_watermark: Type.Union([U53('stats watermark'), Type.Null()]),
      },
      { additionalProperties: false },
    ),
  ),
  leaderboard: history(
    '/api/v1/leaderboard',
    'Leaderboard',
    Type.Object({
      metric: Opt(EnumQuery(LEADERBOARD_METRICS, 'default pnl')),
      period: Opt(EnumQuery(LEADERBOARD_PERIODS, 'default all')),
      limit: Opt(IntQuery(`rows, default 50, at most ${LEADERBOARD_SIZE_MAX}`)),
    }),
    LeaderboardSchema,
  ),
  search: history(
    '/api/v1/search',
    'Search accounts, blocks, transactions and markets',
    Type.Object({ q: TextQuery('the text (required; first 80 characters)') }),
    Type.Object(
      { data: Type.Array(SearchHitSchema), page: Strict({ offset: U53('0'), limit: U53('hits') }) },
      { additionalProperties: false },
    ),
  ),
  chainAccount: history(
    '/api/v1/chain/account',
    'The live account view (getAccount) with the chain wrapper',
    Type.Object({ address: AddressQuery('the account (required)') }),
    ChainWrapped(AccountResult),
  ),
  chainOpenOrders: history(
    '/api/v1/chain/open-orders',
    'Open orders of an account from the live chain',
    Type.Object({ address: AddressQuery('the account (required)'), ...marketQuery, ...offsetPaging(PAGING.openOrders) }),
    Type.Object(
      { height: U53('the chain tip'), data: Type.Array(OpenOrderViewSchema), page: OffsetPage },
      { additionalProperties: false, description: 'open orders in order id order' },
    ),
  ),
} as const satisfies RouteTable

// --- the handlers ----------------------------------------------------------------------------

export function historyRoutes(node: ChainNode) {
  return serveRoutes(HISTORY_ROUTES, {
    status: async () => jsonResponse(await statusBody(node)),
    blocks: ({ query }) => paged(node, 'blocks', { page: pageRequest(query, PAGING.blocks) }),
    block: async ({ params }) => {
      // params.id arrives percent-decoded (Elysia); decoding twice breaks on a literal '%'.
      const b = (await requireHistory(node).read('block', { id: params.id })).value
      return b === null ? jsonResponse({ error: `block ${params.id.slice(0, 80)} not found` }, 404) : jsonResponse({ data: b })
    },
    blockEvents: async ({ params, query }) => {
      const height = Number(params.id)
      const page = pageRequest(query, PAGING.blockEvents)
      const r = (await requireHistory(node).read('blockEvents', { height, page })).value
      if (r === null) return jsonResponse({ error: `block ${height} not found` }, 404)
      const more = page.offset + r.data.length < r.total
      return jsonResponse({
        data: r.data,
        page: { offset: page.offset, limit: page.limit, ...(page.includeTotal ? { total: r.total } : {}), has_more: more },
      })
    },
    blockEnvelopes: async ({ params }) => {
      const height = Number(params.id)
      const r = (await requireHistory(node).read('blockEnvelopes', { height })).value
      return r === null ? jsonResponse({ error: `block ${height} not found` }, 404) : jsonResponse({ data: r })
    },
    envelopes: ({ query }) => {
      const fromBlock = query.from_block
      const toBlock = query.to_block
      const filter = { signer: query.signer?.toLowerCase(), actionKind: query.action_kind, marketId: query.market_id, fromBlock, toBlock }
      return paged(node, 'envelopes', { filter, page: pageRequest(query, PAGING.envelopes) })
    },
    tx: async ({ params }) => {
      const hash = params.hash.toLowerCase()
      const tx = (await requireHistory(node).read('tx', { hash })).value
      return tx === null ? jsonResponse({ error: `transaction ${hash} not found` }, 404) : jsonResponse({ data: tx, source: 'local' })
    },
    fills: ({ query }) => {
      const filter = {
        account: query.account.toLowerCase(),
        marketId: marketFilter(node, query),
        fromBlock: query.from_block,
        toBlock: query.to_block,
      }
      return paged(node, 'fills', { filter, page: pageRequest(query, PAGING.fills) })
    },
    orders: ({ query }) => {
      const filter = { owner: query.owner.toLowerCase(), marketId: marketFilter(node, query), includeOpen: query.include_open === true }
      return paged(node, 'orders', { filter, page: pageRequest(query, PAGING.orders) })
    },
    fundFlows: ({ query }) =>
      paged(node, 'fundFlows', {
        account: query.account.toLowerCase(),
        flowType: query.flow_type,
        page: pageRequest(query, PAGING.accountRows),
      }),
    bridgeFlows: ({ query }) =>
      paged(node, 'bridgeFlows', {
        account: query.account.toLowerCase(),
        direction: query.direction,
        page: pageRequest(query, PAGING.accountRows),
      }),
    positions: ({ query }) =>
      paged(node, 'positions', {
        account: query.account.toLowerCase(),
        marketId: marketFilter(node, query),
        page: pageRequest(query, PAGING.accountRows),
      }),
    referralEvents: ({ query }) =>
      paged(node, 'referralEvents', {
        account: query.account.toLowerCase(),
        role: query.role,
        page: pageRequest(query, PAGING.accountRows),
      }),
    rebateEvents: ({ query }) =>
      paged(node, 'rebateEvents', { account: query.account.toLowerCase(), role: query.role, page: pageRequest(query, PAGING.accountRows) }),
    accountEvents: ({ query }) =>
      paged(node, 'accountEvents', {
        account: query.account.toLowerCase(),
        subKind: query.sub_kind,
        page: pageRequest(query, PAGING.accountRows),
      }),
    accountStats: async ({ query }) => {
      const r = await requireHistory(node).read('accountStats', { account: query.account.toLowerCase() })
      return jsonResponse({ data: r.value, stats_watermark: r.watermarks.stats > 0 ? r.watermarks.stats : null })
    },
    leaderboard: async ({ query }) => {
      const metric = query.metric ?? 'pnl'
      const period = query.period ?? 'all'
      const read = { metric, period, limit: Math.max(1, Math.min(LEADERBOARD_SIZE_MAX, query.limit ?? 50)) }
      return jsonResponse((await requireHistory(node).read('leaderboard', read)).value)
    },
    search: async ({ query }) => {
      const data = (await requireHistory(node).read('search', { q: query.q.slice(0, 80) })).value
      return jsonResponse({ data, page: { offset: 0, limit: data.length } })
    },
    chainAccount: ({ query }) => jsonResponse({ height: node.state.height, data: accountView(node.state, query.address.toLowerCase()) }),
    chainOpenOrders: ({ query }) => {
      const address = query.address.toLowerCase()
      const marketId = marketFilter(node, query)
      const page = pageRequest(query, PAGING.openOrders)
      const acct = node.state.accounts.get(address)
      const orders =
        acct === undefined
          ? []
          : [...acct.orders.values()].filter((o) => marketId === undefined || o.marketId === marketId).sort((a, b) => a.id - b.id)
      const data = orders.slice(page.offset, page.offset + page.limit).map((o) => openOrderView(node.state, o))
      return jsonResponse({
        height: node.state.height,
        data,
        page: {
          offset: page.offset,
          limit: page.limit,
          ...(page.includeTotal ? { total: orders.length } : {}),
          has_more: page.offset + data.length < orders.length,
        },
      })
    },
  })
}
