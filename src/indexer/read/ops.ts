// Every history read, as one table of operations the reader thread runs on its read-only
// connection. Arguments arrive validated (the HTTP and JSON-RPC edges check them); each operation
// runs in one read transaction, so its rows and the watermarks returned with them agree.
import type { Database } from 'bun:sqlite'
import type { CandleInterval } from '../../wire/candles.ts'
import type { PageInfo, PageRequest } from '../paging.ts'
import { readCounter } from '../stages/counters.ts'
import type { SymbolOf } from '../symbols.ts'
import { accountEvents } from '../tables/account-events.ts'
import { accountStats } from '../tables/account-stats.ts'
import { blockById, listBlocks } from '../tables/blocks.ts'
import { accountBridgeFlows } from '../tables/bridge-flows.ts'
import { type CandlePick, candleRange } from '../tables/candles.ts'
import { countSignedBetween, type EnvelopeFilter, envelopeByHash, envelopesOfBlock, listEnvelopes } from '../tables/envelopes.ts'
import { eventsOfBlock, eventsOfEnvelope } from '../tables/events.ts'
import { accountFills, type FillFilter, fillRecord, orderFills, userFill, volumeBetween } from '../tables/fills.ts'
import { accountFundFlows } from '../tables/fund-flows.ts'
import { type LeaderboardMetric, type LeaderboardPeriod, leaderboard } from '../tables/leaderboard.ts'
import { type OrderEventFilter, ownerOrderEvents } from '../tables/order-events.ts'
import { orderByClientId, orderById } from '../tables/orders.ts'
import { accountPositions } from '../tables/positions.ts'
import { accountRebateEvents } from '../tables/rebate-events.ts'
import { accountReferralEvents } from '../tables/referral-events.ts'
import { recentTrades } from '../tables/trades.ts'
import { txLocation } from '../tables/tx-runs.ts'
import { readWatermarks } from '../watermarks.ts'
import { customCandles } from './custom-candles.ts'
import { search } from './search.ts'

export interface ReadContext {
  readonly db: Database
  readonly symbolOf: SymbolOf
}

type AccountPage<F = object> = { account: string; page: PageRequest } & F

export const READ_OPS = {
  status: (c: ReadContext) => ({ blockCount: readCounter(c.db, 'block_count'), envelopeTotal: readCounter(c.db, 'envelope_total') }),
  blocks: (c: ReadContext, a: { page: PageRequest }) => listBlocks(c.db, a.page),
  block: (c: ReadContext, a: { id: string }) => blockById(c.db, a.id) ?? null,
  blockEvents: (c: ReadContext, a: { height: number; page: PageRequest }) => {
    const b = blockById(c.db, String(a.height))
    if (b === undefined) return null
    const data = eventsOfBlock(c.db, a.height, a.page.offset, a.page.limit, c.symbolOf)
    return { data, total: b.event_count }
  },
  blockEnvelopes: (c: ReadContext, a: { height: number }) =>
    blockById(c.db, String(a.height)) === undefined ? null : envelopesOfBlock(c.db, a.height, c.symbolOf),
  envelopes: (c: ReadContext, a: { filter: EnvelopeFilter; page: PageRequest }) => listEnvelopes(c.db, a.filter, a.page, c.symbolOf),
  /** Where the envelope with this tx hash is (getTx reads the rest from the block store), or null. */
  txLocation: (c: ReadContext, a: { hash: string }) => txLocation(c.db, a.hash),
  tx: (c: ReadContext, a: { hash: string }) => {
    const env = envelopeByHash(c.db, a.hash, c.symbolOf)
    if (env === undefined) return null
    const b = blockById(c.db, String(env.height))
    return { ...env, timestamp_ms: b?.timestamp_ms ?? null, events: eventsOfEnvelope(c.db, env.height, env.envelope_idx, c.symbolOf) }
  },
  fills: (c: ReadContext, a: { filter: FillFilter; page: PageRequest }) => {
    const r = accountFills(c.db, a.filter, a.page)
    return { data: r.rows.map((row) => fillRecord(row, c.symbolOf)), page: r.page }
  },
  userFills: (c: ReadContext, a: { filter: FillFilter; page: PageRequest; order: 'asc' | 'desc' }) => {
    const r = accountFills(c.db, a.filter, a.page, a.order)
    return { data: r.rows.map((row) => userFill(row, c.symbolOf)), page: r.page }
  },
  orderFills: (
    c: ReadContext,
    a: {
      orderId?: number | undefined
      owner?: string | undefined
      marketId?: number | undefined
      clientOrderId?: string | undefined
      page: PageRequest
    },
  ) => {
    const order = a.orderId !== undefined ? orderById(c.db, a.orderId) : orderByClientId(c.db, a.owner!, a.marketId!, a.clientOrderId!)
    if (order === undefined)
      return { order_id: null, data: [], page: { offset: a.page.offset, limit: a.page.limit, next_cursor: null, has_more: false } }
    const r = orderFills(
      c.db,
      { orderId: order.order_id, owner: order.owner, marketId: order.market_id, fromHeight: order.placed_height ?? 0 },
      a.page,
    )
    return { order_id: order.order_id, data: r.rows.map((row) => userFill(row, c.symbolOf)), page: r.page }
  },
  orderArchive: (
    c: ReadContext,
    a: { orderId?: number | undefined; owner?: string | undefined; marketId?: number | undefined; clientOrderId?: string | undefined },
  ) => (a.orderId !== undefined ? orderById(c.db, a.orderId) : orderByClientId(c.db, a.owner!, a.marketId!, a.clientOrderId!)) ?? null,
  orders: (c: ReadContext, a: { filter: OrderEventFilter; page: PageRequest }) => ownerOrderEvents(c.db, a.filter, a.page, c.symbolOf),
  fundFlows: (c: ReadContext, a: AccountPage<{ flowType?: string | undefined }>) => accountFundFlows(c.db, a, a.page, c.symbolOf),
  bridgeFlows: (c: ReadContext, a: AccountPage<{ direction?: string | undefined }>) => accountBridgeFlows(c.db, a, a.page),
  positions: (c: ReadContext, a: AccountPage<{ marketId?: number | undefined }>) => accountPositions(c.db, a, a.page, c.symbolOf),
  referralEvents: (c: ReadContext, a: AccountPage<{ role?: string | undefined }>) => {
    const r = accountReferralEvents(c.db, a, a.page)
    return { data: r.rows, page: r.page }
  },
  rebateEvents: (c: ReadContext, a: AccountPage<{ role?: string | undefined }>) => accountRebateEvents(c.db, a, a.page, c.symbolOf),
  accountEvents: (c: ReadContext, a: AccountPage<{ subKind?: string | undefined }>) => accountEvents(c.db, a, a.page, c.symbolOf),
  accountStats: (c: ReadContext, a: { account: string }) => accountStats(c.db, a.account),
  leaderboard: (c: ReadContext, a: { metric: LeaderboardMetric; period: LeaderboardPeriod; limit: number }) =>
    leaderboard(c.db, a.metric, a.period, a.limit),
  search: (c: ReadContext, a: { q: string }) => search(c.db, a.q, c.symbolOf),
  candles: (
    c: ReadContext,
    a: { marketId: number; interval: CandleInterval; fromMs: number; toMs: number; limit: number; pick?: CandlePick | undefined },
  ) => candleRange(c.db, a.marketId, a.interval, a.fromMs, a.toMs, a.limit, a.pick),
  customCandles: (
    c: ReadContext,
    a: { marketId: number; intervalMs: number; fromHeight: number; fromMs: number; toMs: number; limit: number },
  ) => customCandles(c.db, a),
  recentTrades: (c: ReadContext, a: { marketId?: number | undefined; fromHeight: number; page: PageRequest }) =>
    recentTrades(c.db, a.marketId, a.fromHeight, a.page, c.symbolOf),
  rateLimit: (c: ReadContext, a: { address: string; fromHeight: number; toHeight: number }) => ({
    cum_vlm: volumeBetween(c.db, a.address, a.fromHeight, a.toHeight),
    n_requests_used: countSignedBetween(c.db, a.address, a.fromHeight, a.toHeight),
  }),
}

export type ReadOps = typeof READ_OPS
export type ReadOp = keyof ReadOps
export type ReadArgs<K extends ReadOp> = Parameters<ReadOps[K]>[1]
export type ReadValue<K extends ReadOp> = ReturnType<ReadOps[K]>
/** The operations whose value is {data, page} (answered as JSON text by readPagedJson). */
export type PagedOp = { [K in ReadOp]: ReadValue<K> extends { data: unknown; page: PageInfo } ? K : never }[ReadOp]

/** Runs an operation in one read transaction; returns its value and the watermarks it saw. */
export function runRead(c: ReadContext, op: string, args: unknown) {
  const fn = (READ_OPS as Record<string, (c: ReadContext, a: unknown) => unknown>)[op]
  if (fn === undefined) throw new Error(`unknown read ${op}`)
  return c.db.transaction(() => ({ value: fn(c, args), watermarks: readWatermarks(c.db) }))()
}
