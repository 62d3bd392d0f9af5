// The JSON-RPC reads backed by the history index
// (docs/history-api.md#json-rpc-methods-backed-by-the-index): getCandles (with its block-level
// cache), getUserFills, getUserFillsSince, getOrderFills, getOrderStatus, getRecentTrades and
// getUserRateLimit. They read on the reader thread; `height` is the index watermark of the data (so
// `stale` is true while the index is behind the chain).
import { type Static, Type } from '@sinclair/typebox'
import { type Market, type Order, resolveMarketRef } from '../../chain/index.ts'
import { money as formatMoney } from '../../indexer/amounts.ts'
import type { CandleText } from '../../indexer/candles/candle-math.ts'
import { msBucket } from '../../indexer/candles/live-candles.ts'
import type { HistoryIndex } from '../../indexer/history-index.ts'
import { decodeCursor, OFFSET_MAX, type PageInfo, type PageRequest, ReadError } from '../../indexer/paging.ts'
import { type OrderArchiveRow, snakeReason } from '../../indexer/tables/orders.ts'
import { normalizeAddress } from '../../lib/hex.ts'
import { CANDLE_INTERVALS, intervalOfMs } from '../../wire/candles.ts'
import {
  CandlesResult,
  type OpenOrderStatusSchema,
  OrderStatusResult,
  RecentTradesResult,
  UserFillsResult,
  UserRateLimitResult,
} from '../../wire/results/history.ts'
import { RPC } from '../../wire/rpc-errors.ts'
import { Address20, U32, U53 } from '../../wire/schema-types.ts'
import { historyOf } from '../history-link.ts'
import { CANDLES_LIMIT_DEFAULT, CANDLES_LIMIT_MAX, readCandles } from '../routes/candle-routes.ts'
import { openOrderView } from '../views/account-view.ts'
import { MethodError, type MethodResult, method, type Page, type QueryContext } from './registry.ts'

/** The journal scan window (docs/limits.md#journal-window): getCandles of other lengths, recent trades, the rate-limit view. */
export const HISTORY_WINDOW_BLOCKS = 10_000
export const USER_FILLS_LIMIT_DEFAULT = 50
export const USER_FILLS_LIMIT_MAX = 500
export const RECENT_TRADES_LIMIT_DEFAULT = 50
export const RECENT_TRADES_LIMIT_MAX = 1_000

const MarketRef = {
  market_id: Type.Optional(U32('the market; takes precedence over symbol')),
  symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'symbol or base-asset prefix, case-insensitive' })),
}
const Paging = (limitDefault: number, limitMax: number) => ({
  offset: Type.Optional(Type.Integer({ minimum: 0, description: `rows to skip (at most ${OFFSET_MAX}; deeper pages use cursor)` })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: `rows per page (default ${limitDefault}, clamped to ${limitMax})` })),
  cursor: Type.Optional(Type.String({ maxLength: 64, description: 'next_cursor of the previous page; takes precedence over offset' })),
})

function history(ctx: QueryContext): HistoryIndex {
  const h = historyOf(ctx.node)
  if (h === undefined) throw new MethodError(RPC.internalError, 'the history index is not running', { reason: 'HISTORY_UNAVAILABLE' })
  return h
}

function address(raw: string, field = 'params.address'): string {
  const a = normalizeAddress(raw)
  if (a === undefined) throw new MethodError(RPC.invalidParams, `${field}: not a 20-byte hex address`, { field })
  return a
}

function optionalMarket(ctx: QueryContext, ref: { market_id?: number | undefined; symbol?: string | undefined }): Market | undefined {
  if (ref.market_id === undefined && ref.symbol === undefined) return undefined
  const m = resolveMarketRef(ctx.node.state, ref)
  if (m === undefined)
    throw new MethodError(RPC.invalidParams, `market ${ref.market_id ?? ref.symbol} not found`, {
      field: ref.market_id !== undefined ? 'params.market_id' : 'params.symbol',
      reason: 'MarketNotFound',
    })
  return m
}

/** offset/limit/cursor of a history method; offset above 1000 is HTTP 400 where docs/errors.md#http-statuses says so. */
function page(
  p: { offset?: number | undefined; limit?: number | undefined; cursor?: string | undefined },
  limitDefault: number,
  limitMax: number,
  cursorParts: number,
  offsetIs400: boolean,
): PageRequest {
  const offset = p.offset ?? 0
  if (offset > OFFSET_MAX) {
    throw new MethodError(
      RPC.invalidParams,
      `params.offset ${offset} is above ${OFFSET_MAX}; page deeper with cursor`,
      { field: 'params.offset', reason: 'OFFSET_TOO_DEEP', max: OFFSET_MAX },
      offsetIs400 ? 400 : undefined,
    )
  }
  let cursor: number[] | undefined
  if (p.cursor !== undefined) {
    try {
      cursor = decodeCursor(p.cursor, cursorParts)
    } catch (err) {
      throw new MethodError(RPC.invalidParams, `params.cursor: ${(err as Error).message}`, { field: 'params.cursor' })
    }
  }
  return { offset, limit: Math.min(limitMax, p.limit ?? limitDefault), cursor, includeTotal: false }
}

const pageOf = (p: PageInfo): Page => ({ offset: p.offset, limit: p.limit, total: null, next_cursor: p.next_cursor, has_more: p.has_more })

/** A paged history read as a method result: its rows, at the derive watermark, with its page. */
const pagedResult = ({
  value,
  watermarks,
}: {
  value: { data: unknown[]; page: PageInfo }
  watermarks: { derive: number }
}): MethodResult => ({ data: value.data, height: watermarks.derive, page: pageOf(value.page) })

/** A reader failure as a method error (a caller's mistake keeps its status). */
async function reading<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof ReadError)
      throw new MethodError(err.status < 500 ? RPC.invalidParams : RPC.internalError, err.message, { reason: 'HISTORY_READ' })
    throw err
  }
}

/** getCandles results without start/end, per (market_id, interval_ms, limit), valid for one chain height. */
const candleCache = new WeakMap<HistoryIndex, Map<string, { height: number; result: Promise<MethodResult> }>>()
/** Cache entries kept per index (distinct market x interval x limit combinations in one block). */
const CANDLE_CACHE_ENTRIES_MAX = 1_024

const candleResponse = (c: CandleText) => ({
  open_time_ms: c.t,
  close_time_ms: c.close_t,
  open: c.o,
  high: c.h,
  low: c.l,
  close: c.c,
  volume: c.v,
  trades: c.n,
})

async function candlesOf(
  ctx: QueryContext,
  h: HistoryIndex,
  m: Market,
  intervalMs: number,
  fromMs: number,
  toMs: number,
  limit: number,
): Promise<MethodResult> {
  const nowMs = Date.now()
  const interval = intervalOfMs(intervalMs)
  if (interval !== undefined) {
    const r = await readCandles(ctx.node, { marketId: m.marketId, interval, fromMs, toMs, limit, nowMs })
    return { data: r.candles.map(candleResponse), height: r.watermark }
  }
  // Another length: built from the trades of the journal scan window, in-progress trades merged.
  const { value, watermarks } = await h.read('customCandles', {
    marketId: m.marketId,
    intervalMs,
    fromHeight: Math.max(0, h.progress.watermarks.derive - HISTORY_WINDOW_BLOCKS + 1),
    fromMs,
    toMs,
    limit,
  })
  const candles =
    toMs < nowMs
      ? value
      : h.pending.merge({
          marketId: m.marketId,
          watermark: watermarks.derive,
          fromMs,
          toMs,
          limit,
          stored: value,
          bucket: msBucket(intervalMs),
        })
  return { data: candles.map(candleResponse), height: watermarks.derive }
}

/** getOrderStatus data of an open order (from the live chain state). */
function openStatus(ctx: QueryContext, o: Order): Static<typeof OpenOrderStatusSchema> {
  return {
    status: 'open',
    source: 'chain',
    owner: o.owner,
    ...openOrderView(ctx.node.state, o),
    close_reason: null,
    closed_height: null,
    closed_timestamp_ms: null,
  }
}

function archiveStatus(ctx: QueryContext, row: OrderArchiveRow, source: string) {
  return {
    status: row.status,
    source,
    owner: row.owner,
    order_id: row.order_id,
    market_id: row.market_id,
    symbol: ctx.node.state.markets.get(row.market_id)?.symbol ?? null,
    side: row.side,
    price: row.price,
    qty: row.qty,
    remaining: row.remaining,
    filled: row.filled,
    tif: row.tif,
    reduce_only: row.reduce_only === null ? null : row.reduce_only === 1,
    client_order_id: row.client_order_id,
    trigger_id: row.trigger_id,
    placed_height: row.placed_height,
    close_reason: row.close_reason === null ? null : snakeReason(row.close_reason),
    closed_height: row.closed_height,
    closed_timestamp_ms: row.closed_timestamp_ms,
  }
}

/** An open order by id, looking through the books (one lookup per market). */
function openOrderById(ctx: QueryContext, orderId: number): Order | undefined {
  for (const book of ctx.node.state.books.values()) {
    const o = book.get(orderId)
    if (o !== undefined) return o
  }
  return undefined
}

const OrderRef = {
  order_id: Type.Optional(U53('the order id')),
  address: Type.Optional(Address20('the owner, with client_order_id and a market')),
  ...MarketRef,
  client_order_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: "the owner's client order id (with address and a market)" }),
  ),
}

function orderRef(
  ctx: QueryContext,
  p: {
    order_id?: number | undefined
    address?: string | undefined
    market_id?: number | undefined
    symbol?: string | undefined
    client_order_id?: string | undefined
  },
) {
  if (p.order_id !== undefined) return { orderId: p.order_id }
  if (p.address === undefined || p.client_order_id === undefined) {
    throw new MethodError(RPC.invalidParams, 'params: give order_id, or address with symbol (or market_id) and client_order_id', {
      field: 'params.order_id',
    })
  }
  const m = optionalMarket(ctx, p)
  if (m === undefined)
    throw new MethodError(RPC.invalidParams, 'params: a client_order_id lookup needs symbol or market_id', { field: 'params.symbol' })
  return { owner: address(p.address), marketId: m.marketId, clientOrderId: p.client_order_id }
}

export const historyMethods = [
  method({
    name: 'getCandles',
    description: `CandleResponse rows of a market, oldest first. interval_ms of one of the 14 intervals (${CANDLE_INTERVALS.slice(0, -1).join(', ')}) reads the candle index, which covers the whole chain: a deliberate extension of the ${HISTORY_WINDOW_BLOCKS.toLocaleString('en-US')}-block journal scan window, so old buckets stay readable. Any other length is built from the trades of the last ${HISTORY_WINDOW_BLOCKS.toLocaleString('en-US')} blocks (the journal window). Without start/end times the result is cached until the next block.`,
    params: Type.Object(
      {
        ...MarketRef,
        interval_ms: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'bucket length in ms' }),
        start_time_ms: Type.Optional(U53('first bucket open time, inclusive')),
        end_time_ms: Type.Optional(U53('last bucket open time, inclusive')),
        limit: Type.Optional(
          Type.Integer({
            minimum: 1,
            description: `candles (default ${CANDLES_LIMIT_DEFAULT}, clamped to ${CANDLES_LIMIT_MAX}); the newest are returned`,
          }),
        ),
      },
      { additionalProperties: false },
    ),
    result: CandlesResult,
    example: { symbol: 'BTC-USD', interval_ms: 60_000, limit: 100 },
    handler: (ctx, p) => {
      const h = history(ctx)
      const m = optionalMarket(ctx, p)
      if (m === undefined) throw new MethodError(RPC.invalidParams, 'params: give market_id or symbol', { field: 'params.symbol' })
      const limit = Math.min(CANDLES_LIMIT_MAX, p.limit ?? CANDLES_LIMIT_DEFAULT)
      const run = () =>
        reading(() => candlesOf(ctx, h, m, p.interval_ms, p.start_time_ms ?? 0, p.end_time_ms ?? Number.MAX_SAFE_INTEGER, limit))
      if (p.start_time_ms !== undefined || p.end_time_ms !== undefined) return run()
      let cache = candleCache.get(h)
      if (cache === undefined) {
        cache = new Map()
        candleCache.set(h, cache)
      }
      const height = ctx.node.state.height
      const key = `${m.marketId}:${p.interval_ms}:${limit}`
      const hit = cache.get(key)
      if (hit !== undefined && hit.height === height) return hit.result
      // A new block invalidates every entry; the map is rebuilt from the first read of the block.
      if (hit === undefined && cache.size >= CANDLE_CACHE_ENTRIES_MAX) cache.clear()
      for (const [k, v] of cache) if (v.height !== height) cache.delete(k)
      const result = run()
      cache.set(key, { height, result })
      result.catch(() => cache.delete(key))
      return result
    },
  }),
  method({
    name: 'getUserFills',
    paged: true,
    description:
      "An account's fills, newest first, with the taker direction (aggressor_side); offset above 1000 is HTTP 400, page deeper with cursor.",
    params: Type.Object(
      {
        address: Address20('the account'),
        ...MarketRef,
        start_time_ms: Type.Optional(U53('fills at or after this time')),
        end_time_ms: Type.Optional(U53('fills at or before this time')),
        ...Paging(USER_FILLS_LIMIT_DEFAULT, USER_FILLS_LIMIT_MAX),
      },
      { additionalProperties: false },
    ),
    result: UserFillsResult,
    example: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', symbol: 'BTC', limit: 20 },
    handler: (ctx, p) =>
      reading(async () => {
        const pg = page(p, USER_FILLS_LIMIT_DEFAULT, USER_FILLS_LIMIT_MAX, 3, true)
        const filter = {
          account: address(p.address),
          marketId: optionalMarket(ctx, p)?.marketId,
          fromMs: p.start_time_ms,
          toMs: p.end_time_ms,
        }
        return pagedResult(await history(ctx).read('userFills', { filter, page: pg, order: 'desc' }))
      }),
  }),
  method({
    name: 'getUserFillsSince',
    paged: true,
    description:
      "An account's fills oldest to newest from a block (from_block) or a time (start_time_ms), continued with cursor: the reconciliation read.",
    params: Type.Object(
      {
        address: Address20('the account'),
        ...MarketRef,
        from_block: Type.Optional(U53('first block, inclusive')),
        start_time_ms: Type.Optional(U53('fills at or after this time')),
        limit: Paging(USER_FILLS_LIMIT_DEFAULT, USER_FILLS_LIMIT_MAX).limit,
        cursor: Paging(0, 0).cursor,
      },
      { additionalProperties: false },
    ),
    result: UserFillsResult,
    example: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', from_block: 1 },
    handler: (ctx, p) =>
      reading(async () => {
        const pg = page(p, USER_FILLS_LIMIT_DEFAULT, USER_FILLS_LIMIT_MAX, 3, false)
        const filter = {
          account: address(p.address),
          marketId: optionalMarket(ctx, p)?.marketId,
          fromBlock: p.from_block,
          fromMs: p.start_time_ms,
        }
        return pagedResult(await history(ctx).read('userFills', { filter, page: pg, order: 'asc' }))
      }),
  }),
  method({
    name: 'getOrderFills',
    paged: true,
    description:
      "The fills of one order (the owner's side), oldest first, by order_id or by address + symbol + client_order_id; limit applies in the query; offset above 1000 is HTTP 400.",
    params: Type.Object({ ...OrderRef, ...Paging(USER_FILLS_LIMIT_DEFAULT, USER_FILLS_LIMIT_MAX) }, { additionalProperties: false }),
    result: UserFillsResult,
    example: { order_id: 1 },
    handler: (ctx, p) =>
      reading(async () => {
        const pg = page(p, USER_FILLS_LIMIT_DEFAULT, USER_FILLS_LIMIT_MAX, 3, true)
        return pagedResult(await history(ctx).read('orderFills', { ...orderRef(ctx, p), page: pg }))
      }),
  }),
  method({
    name: 'getOrderStatus',
    description:
      'Where an order stands: open orders from the chain state (no journal scan), closed ones from the 24 h hot cache or the permanent archive. close_reason is snake_case (filled, cancelled, ioc_expired, amend_clamped_at_filled, expired, ...).',
    params: Type.Object(OrderRef, { additionalProperties: false }),
    result: OrderStatusResult,
    example: { order_id: 1 },
    handler: (ctx, p) =>
      reading(async () => {
        const h = history(ctx)
        const ref = orderRef(ctx, p)
        let open: Order | undefined
        if (ref.orderId !== undefined) open = openOrderById(ctx, ref.orderId)
        else {
          const acct = ctx.node.state.accounts.get(ref.owner!)
          const id = acct?.ordersByClientId.get(`${ref.marketId}:${ref.clientOrderId}`)
          open = id === undefined ? undefined : acct!.orders.get(id)
        }
        if (open !== undefined) return { data: openStatus(ctx, open) }
        const hot =
          ref.orderId !== undefined
            ? h.closedOrders.get(ref.orderId)
            : h.closedOrders.byClientId(ref.owner!, ref.marketId!, ref.clientOrderId!)
        const { value: row, watermarks } = await h.read('orderArchive', hot !== undefined ? { orderId: hot.orderId } : ref)
        if (hot !== undefined) {
          // The close from memory, the details from the archive once the index has them.
          const base =
            row ??
            ({
              order_id: hot.orderId,
              owner: hot.owner,
              market_id: hot.marketId,
              side: null,
              price: null,
              qty: null,
              tif: null,
              reduce_only: null,
              client_order_id: hot.clientOrderId,
              trigger_id: null,
              placed_height: null,
            } as OrderArchiveRow)
          return {
            data: archiveStatus(
              ctx,
              {
                ...base,
                status: 'closed',
                close_reason: hot.reason,
                remaining: hot.remaining,
                filled: hot.filled,
                closed_height: hot.height,
                closed_timestamp_ms: hot.timestampMs,
              },
              'hot_cache',
            ),
          }
        }
        if (row !== null && row.status === 'closed') return { data: archiveStatus(ctx, row, 'archive'), height: watermarks.derive }
        return { data: { status: 'unknown', source: null, order_id: ref.orderId ?? row?.order_id ?? null }, height: watermarks.derive }
      }),
  }),
  method({
    name: 'getRecentTrades',
    paged: true,
    description: `Trades (the taker's view: side is the taker direction), newest first, of one market or all, from the last ${HISTORY_WINDOW_BLOCKS} blocks; cursor pages deeper than offset.`,
    params: Type.Object({ ...MarketRef, ...Paging(RECENT_TRADES_LIMIT_DEFAULT, RECENT_TRADES_LIMIT_MAX) }, { additionalProperties: false }),
    result: RecentTradesResult,
    example: { symbol: 'BTC', limit: 20 },
    handler: (ctx, p) =>
      reading(async () => {
        const h = history(ctx)
        const pg = page(p, RECENT_TRADES_LIMIT_DEFAULT, RECENT_TRADES_LIMIT_MAX, 2, false)
        const fromHeight = Math.max(0, h.progress.watermarks.derive - HISTORY_WINDOW_BLOCKS + 1)
        return pagedResult(await h.read('recentTrades', { marketId: optionalMarket(ctx, p)?.marketId, fromHeight, page: pg }))
      }),
  }),
  method({
    name: 'getUserRateLimit',
    description: `Informational: an address's notional volume (cum_vlm, SCALE_6) and signed envelopes (n_requests_used) over the index's last ${HISTORY_WINDOW_BLOCKS} blocks; n_requests_cap is max_tx_per_block.`,
    params: Type.Object({ address: Address20('the address') }, { additionalProperties: false }),
    result: UserRateLimitResult,
    example: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    handler: (ctx, p) =>
      reading(async () => {
        const h = history(ctx)
        const a = address(p.address)
        const to = h.progress.watermarks.derive
        const { value, watermarks } = await h.read('rateLimit', {
          address: a,
          fromHeight: Math.max(0, to - HISTORY_WINDOW_BLOCKS + 1),
          toHeight: to,
        })
        const cumVlm = value.cum_vlm === '0' ? '0' : formatMoney(value.cum_vlm)
        return {
          data: {
            address: a,
            cum_vlm: cumVlm,
            n_requests_used: value.n_requests_used,
            n_requests_cap: ctx.node.state.params.maxTxPerBlock,
            window_blocks: HISTORY_WINDOW_BLOCKS,
          },
          height: watermarks.derive,
        }
      }),
  }),
]
