// The history / index REST family (docs/history-api.md): blocks, envelopes, transactions,
// fills, orders, flows, positions, referral and rebate events, account events and stats, the
// leaderboard, search, and two live-chain views (/chain/account, /chain/open-orders). Every index
// read runs on the reader thread; responses are {data, page}
// (docs/history-api.md#conventions-all-history-rest-endpoints).
import { Elysia } from 'elysia'
import { resolveMarketRef } from '../../chain/index.ts'
import type { HistoryIndex } from '../../indexer/history-index.ts'
import { ReadError } from '../../indexer/paging.ts'
import type { PagedOp, ReadArgs } from '../../indexer/read/ops.ts'
import { INDEX_VERSION } from '../../indexer/schema.ts'
import { LEADERBOARD_METRICS, LEADERBOARD_PERIODS, LEADERBOARD_SIZE_MAX } from '../../indexer/tables/leaderboard.ts'
import type { ChainNode } from '../../node/chain-node.ts'
import { historyOf } from '../history-link.ts'
import { jsonResponse } from '../jsonrpc.ts'
import { accountView, openOrderView } from '../views/account-view.ts'
import { feedRuntime } from '../ws/runtime.ts'
import { addressParam, boolParam, enumParam, intParam, PAGING, pageParams, type Query, required } from './history-params.ts'

/** Runs a route body; a ReadError becomes its status with {error}. */
export async function answer(run: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof ReadError) return jsonResponse({ error: err.message }, err.status)
    throw err
  }
}

export function requireHistory(node: ChainNode): HistoryIndex {
  const h = historyOf(node)
  if (h === undefined) throw new ReadError(503, 'the history index is not running')
  return h
}

/** A paged read answered as {data, page}, serialized on the reader thread. */
const paged = async <K extends PagedOp>(node: ChainNode, op: K, args: ReadArgs<K>) =>
  new Response(await requireHistory(node).readPagedJson(op, args), { headers: { 'content-type': 'application/json' } })

/** A market_id filter, by market_id or by symbol (resolved as docs/markets.md#symbol-resolution says); unknown symbol is 404. */
function marketFilter(node: ChainNode, q: Query): number | undefined {
  const id = intParam(q, 'market_id', 4_294_967_295)
  if (id !== undefined) return id
  if (q.symbol === undefined || q.symbol === '') return undefined
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

export function historyRoutes(node: ChainNode) {
  const get = (path: string, handler: (q: Query, params: Record<string, string>) => Promise<Response> | Response) => (app: Elysia) =>
    app.get(path, ({ query, params }) => answer(() => handler(query as Query, params as Record<string, string>)))
  const account = (q: Query, name = 'account') => addressParam(q, name, true)
  return new Elysia()
    .use(get('/api/v1/status', async () => jsonResponse(await statusBody(node))))
    .use(get('/api/v1/blocks', async (q) => paged(node, 'blocks', { page: pageParams(q, PAGING.blocks) })))
    .use(
      get('/api/v1/blocks/:id', async (_q, p) => {
        // p.id arrives percent-decoded (Elysia); decoding twice breaks on a literal '%'.
        const b = (await requireHistory(node).read('block', { id: p.id! })).value
        return b === null ? jsonResponse({ error: `block ${p.id!.slice(0, 80)} not found` }, 404) : jsonResponse({ data: b })
      }),
    )
    .use(
      get('/api/v1/blocks/:id/events', async (q, p) => {
        const height = blockHeight(p.id!)
        const page = pageParams(q, PAGING.blockEvents)
        const r = (await requireHistory(node).read('blockEvents', { height, page })).value
        if (r === null) return jsonResponse({ error: `block ${height} not found` }, 404)
        const more = page.offset + r.data.length < r.total
        return jsonResponse({
          data: r.data,
          page: { offset: page.offset, limit: page.limit, ...(page.includeTotal ? { total: r.total } : {}), has_more: more },
        })
      }),
    )
    .use(
      get('/api/v1/blocks/:id/envelopes', async (_q, p) => {
        const height = blockHeight(p.id!)
        const r = (await requireHistory(node).read('blockEnvelopes', { height })).value
        return r === null ? jsonResponse({ error: `block ${height} not found` }, 404) : jsonResponse({ data: r })
      }),
    )
    .use(
      get('/api/v1/envelopes', async (q) => {
        const fromBlock = intParam(q, 'from_block')
        const toBlock = intParam(q, 'to_block')
        const filter = {
          signer: addressParam(q, 'signer', false),
          actionKind: q.action_kind || undefined,
          marketId: intParam(q, 'market_id', 4_294_967_295),
          fromBlock,
          toBlock,
        }
        return paged(node, 'envelopes', { filter, page: pageParams(q, PAGING.envelopes) })
      }),
    )
    .use(
      get('/api/v1/tx/:hash', async (_q, p) => {
        const hash = p.hash!.toLowerCase()
        if (!/^0x[0-9a-f]{64}$/.test(hash)) return jsonResponse({ error: 'a tx hash is 0x and 64 hex digits' }, 400)
        const tx = (await requireHistory(node).read('tx', { hash })).value
        return tx === null ? jsonResponse({ error: `transaction ${hash} not found` }, 404) : jsonResponse({ data: tx, source: 'local' })
      }),
    )
    .use(
      get('/api/v1/fills', async (q) => {
        const filter = {
          account: account(q),
          marketId: marketFilter(node, q),
          fromBlock: intParam(q, 'from_block'),
          toBlock: intParam(q, 'to_block'),
        }
        return paged(node, 'fills', { filter, page: pageParams(q, PAGING.fills) })
      }),
    )
    .use(
      get('/api/v1/orders', async (q) => {
        const filter = { owner: addressParam(q, 'owner', true), marketId: marketFilter(node, q), includeOpen: boolParam(q, 'include_open') }
        return paged(node, 'orders', { filter, page: pageParams(q, PAGING.orders) })
      }),
    )
    .use(
      get('/api/v1/fund-flows', async (q) =>
        paged(node, 'fundFlows', { account: account(q), flowType: q.flow_type || undefined, page: pageParams(q, PAGING.accountRows) }),
      ),
    )
    .use(
      get('/api/v1/bridge-flows', async (q) =>
        paged(node, 'bridgeFlows', {
          account: account(q),
          direction: enumParam(q, 'direction', ['deposit', 'withdraw']),
          page: pageParams(q, PAGING.accountRows),
        }),
      ),
    )
    .use(
      get('/api/v1/positions', async (q) =>
        paged(node, 'positions', { account: account(q), marketId: marketFilter(node, q), page: pageParams(q, PAGING.accountRows) }),
      ),
    )
    .use(
      get('/api/v1/referral/events', async (q) =>
        paged(node, 'referralEvents', {
          account: account(q),
          role: enumParam(q, 'role', ['inviter', 'invitee']),
          page: pageParams(q, PAGING.accountRows),
        }),
      ),
    )
    .use(
      get('/api/v1/rebate/events', async (q) =>
        paged(node, 'rebateEvents', {
          account: account(q),
          role: enumParam(q, 'role', ['inviter', 'invitee']),
          page: pageParams(q, PAGING.accountRows),
        }),
      ),
    )
    .use(
      get('/api/v1/account/events', async (q) =>
        paged(node, 'accountEvents', { account: account(q), subKind: q.sub_kind || undefined, page: pageParams(q, PAGING.accountRows) }),
      ),
    )
    .use(
      get('/api/v1/account-stats', async (q) => {
        const r = await requireHistory(node).read('accountStats', { account: account(q) })
        return jsonResponse({ data: r.value, stats_watermark: r.watermarks.stats > 0 ? r.watermarks.stats : null })
      }),
    )
    .use(
      get('/api/v1/leaderboard', async (q) => {
        const metric = enumParam(q, 'metric', LEADERBOARD_METRICS) ?? 'pnl'
        const period = enumParam(q, 'period', LEADERBOARD_PERIODS) ?? 'all'
        const limit = Math.max(1, Math.min(LEADERBOARD_SIZE_MAX, intParam(q, 'limit') ?? 50))
        return jsonResponse((await requireHistory(node).read('leaderboard', { metric, period, limit })).value)
      }),
    )
    .use(
      get('/api/v1/search', async (q) => {
        const text = required(q, 'q')
        const data = (await requireHistory(node).read('search', { q: text.slice(0, 80) })).value
        return jsonResponse({ data, page: { offset: 0, limit: data.length } })
      }),
    )
    .use(
      get('/api/v1/chain/account', (q) =>
        jsonResponse({ height: node.state.height, data: accountView(node.state, addressParam(q, 'address', true)) }),
      ),
    )
    .use(
      get('/api/v1/chain/open-orders', (q) => {
        const address = addressParam(q, 'address', true)
        const marketId = marketFilter(node, q)
        const page = pageParams(q, PAGING.openOrders)
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
      }),
    )
}

/** A block path id that must be a height (docs/history-api.md#blocks-envelopes-transactions: "numeric height"). */
function blockHeight(id: string): number {
  if (!/^\d{1,16}$/.test(id)) throw new ReadError(400, `block ${id.slice(0, 80)}: this path takes a numeric height`)
  return Number(id)
}
