// Chain REST aliases: GET /api/v1/markets/{symbol}, /api/v1/orderbook/{symbol} and
// /api/v1/stats with the chain wrapper {height, data}. Each runs the JSON-RPC method it mirrors,
// so the two never drift apart; ALIAS_ROUTES declares them (rest-route.ts).
import { Type } from '@sinclair/typebox'
import type { ChainNode } from '../../node/chain-node.ts'
import { ExchangeStatsResult, OrderbookResult } from '../../wire/results/chain.ts'
import { MarketDetailResult } from '../../wire/results/market.ts'
import { ChainWrapped } from '../../wire/results/rest.ts'
import { jsonResponse } from '../jsonrpc.ts'
import type { QueryContext } from '../methods/registry.ts'
import { CountQuery, Opt, SymbolParams } from './query-params.ts'
import { QUERY_TIMEOUT_MS, runQuery } from './query-routes.ts'
import { errorReply, GATE_REPLY, jsonReply, type RouteTable, serveRoutes } from './rest-route.ts'

export const ALIAS_ROUTES = {
  market: {
    method: 'GET',
    path: '/api/v1/markets/:symbol',
    summary: 'A market (getMarket) with the chain wrapper',
    tags: ['chain'],
    params: SymbolParams,
    responses: {
      '200': jsonReply('the market', ChainWrapped(MarketDetailResult)),
      '400': errorReply('bad symbol'),
      '404': errorReply('market not found'),
      '503': GATE_REPLY,
    },
  },
  orderbook: {
    method: 'GET',
    path: '/api/v1/orderbook/:symbol',
    summary: 'The chain order book (getOrderbook) with the chain wrapper',
    tags: ['chain'],
    params: SymbolParams,
    query: Type.Object({ depth: Opt(CountQuery('levels per side; 0 or absent: the default; clamped to 500')) }),
    responses: {
      '200': jsonReply('the book', ChainWrapped(OrderbookResult)),
      '400': errorReply('bad depth'),
      '404': errorReply('market not found'),
      '503': GATE_REPLY,
    },
  },
  stats: {
    method: 'GET',
    path: '/api/v1/stats',
    summary: 'Exchange statistics (getExchangeStats) with the chain wrapper',
    tags: ['chain'],
    responses: { '200': jsonReply('the statistics', ChainWrapped(ExchangeStatsResult)), '503': GATE_REPLY },
  },
} as const satisfies RouteTable

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
  return serveRoutes(ALIAS_ROUTES, {
    market: ({ params }) => alias('getMarket', { symbol: params.symbol }),
    orderbook: ({ params, query }) =>
      alias('getOrderbook', { symbol: params.symbol, ...(query.depth === undefined ? {} : { depth: query.depth }) }),
    stats: () => alias('getExchangeStats', {}),
  })
}
