// Chain REST aliases: GET /api/v1/markets/{symbol}, /api/v1/orderbook/{symbol} and
// /api/v1/stats with the chain wrapper {height, data}. Each runs the JSON-RPC method it mirrors,
// so the two never drift apart.
import { Elysia } from 'elysia'
import type { ChainNode } from '../../node/chain-node.ts'
import { jsonResponse } from '../jsonrpc.ts'
import type { QueryContext } from '../methods/registry.ts'
import { QUERY_TIMEOUT_MS, runQuery } from './query-routes.ts'

export function aliasRoutes(node: ChainNode) {
  const ctx: QueryContext = { node }
  const alias = async (method: string, params: Record<string, unknown>) => {
    const reply = await runQuery(ctx, { jsonrpc: '2.0', id: null, method, params }, Date.now() + QUERY_TIMEOUT_MS)
    if ('error' in reply) {
      const notFound = (reply.error.data as { reason?: string } | undefined)?.reason === 'MarketNotFound'
      return jsonResponse({ error: reply.error.message }, notFound ? 404 : 400)
    }
    const r = reply.result as { height: number; data: unknown }
    return jsonResponse({ height: r.height, data: r.data })
  }
  // Elysia hands path parameters over already percent-decoded: decoding again would turn a literal
  // '%' into a URIError (HTTP 500) and let `BTC%252DUSD` name BTC-USD.
  return new Elysia()
    .get('/api/v1/markets/:symbol', ({ params }) => alias('getMarket', { symbol: params.symbol }))
    .get('/api/v1/orderbook/:symbol', ({ params, query }) => {
      const depth = query.depth === undefined ? undefined : Number(query.depth)
      if (depth !== undefined && (!Number.isInteger(depth) || depth < 0))
        return jsonResponse({ error: 'depth must be a non-negative integer' }, 400)
      return alias('getOrderbook', { symbol: params.symbol, ...(depth === undefined ? {} : { depth }) })
    })
    .get('/api/v1/stats', () => alias('getExchangeStats', {}))
}
