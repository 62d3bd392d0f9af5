// Hot-read market data (docs/websocket.md#hot-read-rest): memory-only endpoints with the wrapper
// {chain_height, book_updated_at_ms, stale, ready, data} and the X-Chain-Height /
// X-Book-Updated-At-Ms / X-Market-Data-Stale headers. 404 {error: 'market not found'}; 503 {error:
// 'market feed seeding'} with Retry-After: 2 while the market's slot is not built; stale data is
// still served with 200.
import { Elysia } from 'elysia'
import { type FeedMarket, type HotFeed, REST_BOOK_DEPTH_MAX } from '../../feed/hot-feed.ts'
import { jsonResponse } from '../jsonrpc.ts'
import type { FeedRuntime } from '../ws/runtime.ts'

/** Trades per page of /market/trades: default and maximum (docs/limits.md#hot-read-rest). */
export const TRADES_LIMIT_DEFAULT = 50
export const TRADES_LIMIT_MAX = 1_000

const SEEDING_RETRY_AFTER_S = '2'

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
const badRequest = (error: string) => jsonResponse({ error }, 400)

/** A non-negative integer query parameter, its default when absent, or undefined when malformed. */
function intParam(raw: string | undefined, fallback: number): number | undefined {
  if (raw === undefined || raw === '') return fallback
  if (!/^\d{1,9}$/.test(raw)) return undefined
  return Number(raw)
}

export function feedRoutes(runtime: FeedRuntime) {
  /** Runs a read on a resolved market, or answers 503 / 404 / 500. */
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
      return jsonResponse({ error: (err as Error).message }, 500)
    }
  }
  return new Elysia()
    .get('/api/v1/market/orderbook/:symbol', ({ params, query }) =>
      forMarket(params.symbol, (feed, m) => {
        const depth = intParam(query.depth, REST_BOOK_DEPTH_MAX)
        if (depth === undefined) return badRequest('depth must be a non-negative integer')
        return wrapped(feed, feed.orderbook(m, depth === 0 ? REST_BOOK_DEPTH_MAX : Math.min(depth, REST_BOOK_DEPTH_MAX)))
      }),
    )
    .get('/api/v1/market/trades/:symbol', ({ params, query }) =>
      forMarket(params.symbol, (feed, m) => {
        const offset = intParam(query.offset, 0)
        const limit = intParam(query.limit, TRADES_LIMIT_DEFAULT)
        if (offset === undefined) return badRequest('offset must be a non-negative integer')
        if (limit === undefined) return badRequest('limit must be a non-negative integer')
        return wrapped(feed, m.trades.page(offset, Math.min(limit === 0 ? TRADES_LIMIT_DEFAULT : limit, TRADES_LIMIT_MAX)))
      }),
    )
    .get('/api/v1/markets/:symbol/summary', ({ params }) => forMarket(params.symbol, (feed, m) => wrapped(feed, feed.summary(m))))
    .get('/api/v1/bbos', () => forAll((feed) => feed.bbos()))
    .get('/api/v1/marks', () => forAll((feed) => feed.marks()))
    .get('/api/v1/markets', () => forAll((feed) => feed.marketInfos()))
}
