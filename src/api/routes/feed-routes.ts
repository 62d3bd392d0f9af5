// Hot-read market data (docs/websocket.md#hot-read-rest): memory-only endpoints with the wrapper
// {chain_height, book_updated_at_ms, stale, ready, data} and the X-Chain-Height /
// X-Book-Updated-At-Ms / X-Market-Data-Stale headers. 404 {error: 'market not found'}; 503 {error:
// 'market feed seeding'} with Retry-After: 2 while the market's slot is not built; stale data is
// still served with 200. FEED_ROUTES declares them (rest-route.ts).
import { Type } from '@sinclair/typebox'
import { type FeedMarket, type HotFeed, REST_BOOK_DEPTH_MAX } from '../../feed/hot-feed.ts'
import { ReadError } from '../../indexer/paging.ts'
import { BboItemSchema, MarksResult } from '../../wire/results/market.ts'
import { HotMarketInfoSchema, HotOrderbookSchema, HotSummarySchema, HotWrapped, RecentTradeSchema } from '../../wire/results/rest.ts'
import { jsonResponse } from '../jsonrpc.ts'
import type { FeedRuntime } from '../ws/runtime.ts'
import { CountQuery, Opt, SymbolParams } from './query-params.ts'
import { errorReply, jsonReply, type RouteTable, serveRoutes } from './rest-route.ts'

/** Trades per page of /market/trades: default and maximum (docs/limits.md#hot-read-rest). */
export const TRADES_LIMIT_DEFAULT = 50
export const TRADES_LIMIT_MAX = 1_000

const SEEDING_RETRY_AFTER_S = '2'

/** depth, offset and limit take up to 9 digits. */
const HOT_COUNT_MAX = 999_999_999

function wrapped(feed: HotFeed, data: unknown): Response {
  const stale = feed.stale
  const headers: Record<string, string> = {
    'x-chain-height': String(feed.height),
    'x-book-updated-at-ms': String(feed.timestampMs),
  }
  if (stale) headers['x-market-data-stale'] = 'true'
  return jsonResponse({ chain_height: feed.height, book_updated_at_ms: feed.timestampMs, stale, ready: true, data }, 200, headers)
}

const seeding = () => jsonResponse({ error: 'market feed seeding' }, 503, { 'retry-after': SEEDING_RETRY_AFTER_S })
const notFound = () => jsonResponse({ error: 'market not found' }, 404)

const hotErrors = {
  '404': errorReply('market not found'),
  '503': errorReply('market feed seeding (Retry-After: 2), or the node is gated'),
}

export const FEED_ROUTES = {
  orderbook: {
    method: 'GET',
    path: '/api/v1/market/orderbook/:symbol',
    summary: 'Hot-read order book snapshot',
    tags: ['hot-read'],
    params: SymbolParams,
    query: Type.Object({ depth: Opt(CountQuery('levels per side; 0 or absent: the maximum', HOT_COUNT_MAX)) }),
    responses: { '200': jsonReply('the snapshot', HotWrapped(HotOrderbookSchema)), '400': errorReply('bad depth'), ...hotErrors },
  },
  trades: {
    method: 'GET',
    path: '/api/v1/market/trades/:symbol',
    summary: 'Hot-read recent trades, newest first',
    tags: ['hot-read'],
    params: SymbolParams,
    query: Type.Object({
      offset: Opt(CountQuery('trades to skip', HOT_COUNT_MAX)),
      limit: Opt(CountQuery(`default ${TRADES_LIMIT_DEFAULT}, at most ${TRADES_LIMIT_MAX}`, HOT_COUNT_MAX)),
    }),
    responses: {
      '200': jsonReply('the trades', HotWrapped(Type.Array(RecentTradeSchema))),
      '400': errorReply('bad offset or limit'),
      ...hotErrors,
    },
  },
  summary: {
    method: 'GET',
    path: '/api/v1/markets/:symbol/summary',
    summary: 'Hot-read market summary',
    tags: ['hot-read'],
    params: SymbolParams,
    responses: { '200': jsonReply('the summary', HotWrapped(HotSummarySchema)), ...hotErrors },
  },
  bbos: {
    method: 'GET',
    path: '/api/v1/bbos',
    summary: 'Hot-read best bid and offer of every market',
    tags: ['hot-read'],
    responses: { '200': jsonReply('BboItem[] by symbol', HotWrapped(Type.Array(BboItemSchema))), '503': hotErrors['503'] },
  },
  marks: {
    method: 'GET',
    path: '/api/v1/marks',
    summary: 'Hot-read mark prices',
    tags: ['hot-read'],
    responses: { '200': jsonReply('MarksMap', HotWrapped(MarksResult)), '503': hotErrors['503'] },
  },
  markets: {
    method: 'GET',
    path: '/api/v1/markets',
    summary: 'Hot-read market list',
    tags: ['hot-read'],
    responses: { '200': jsonReply('the markets', HotWrapped(Type.Array(HotMarketInfoSchema))), '503': hotErrors['503'] },
  },
} as const satisfies RouteTable

export function feedRoutes(runtime: FeedRuntime) {
  /** Runs a read on a resolved market, or answers 503 / 404 / 500 (400: a bad parameter the read reads). */
  const forMarket = (symbol: string, read: (feed: HotFeed, m: FeedMarket) => Response): Response => {
    const feed = runtime.feed
    try {
      if (!feed.isReady('native') && !feed.isReady('external_peg')) return seeding()
      // Elysia has percent-decoded the path parameter already; decoding twice breaks on a literal '%'.
      const m = feed.resolve(symbol)
      if (m === undefined) return notFound()
      if (!feed.isReady(m.row.routing)) return seeding()
      return read(feed, m)
    } catch (err) {
      // A bad parameter (rest-route.ts) keeps its own status.
      if (err instanceof ReadError) throw err
      return jsonResponse({ error: (err as Error).message }, 500)
    }
  }
  /** Runs a read over every market, or answers 503 / 500. */
  const forAll = (read: (feed: HotFeed) => unknown): Response => {
    const feed = runtime.feed
    try {
      if (!feed.isReady('native') || !feed.isReady('external_peg')) return seeding()
      return wrapped(feed, read(feed))
    } catch (err) {
      if (err instanceof ReadError) throw err
      return jsonResponse({ error: (err as Error).message }, 500)
    }
  }
  return serveRoutes(FEED_ROUTES, {
    orderbook: ({ params, query }) =>
      forMarket(params.symbol, (feed, m) => {
        const depth = query.depth ?? 0
        return wrapped(feed, feed.orderbook(m, depth === 0 ? REST_BOOK_DEPTH_MAX : Math.min(depth, REST_BOOK_DEPTH_MAX)))
      }),
    trades: ({ params, query }) =>
      forMarket(params.symbol, (feed, m) => {
        const offset = query.offset ?? 0
        const limit = query.limit ?? TRADES_LIMIT_DEFAULT
        return wrapped(feed, m.trades.page(offset, Math.min(limit === 0 ? TRADES_LIMIT_DEFAULT : limit, TRADES_LIMIT_MAX)))
      }),
    summary: ({ params }) => forMarket(params.symbol, (feed, m) => wrapped(feed, feed.summary(m))),
    bbos: () => forAll((feed) => feed.bbos()),
    marks: () => forAll((feed) => feed.marks()),
    markets: () => forAll((feed) => feed.marketInfos()),
  })
}
