// Candles (docs/history-api.md#candles): GET /api/v1/candles and POST /info candleSnapshot, both a
// bare Candle[] ascending by t. Stored buckets come from the candle stage; when the range reaches
// now, the trades of blocks the stage has not folded yet are merged in from memory. Empty buckets
// are not filled. CANDLE_ROUTES declares both (rest-route.ts).
import { Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { CandleText } from '../../indexer/candles/candle-math.ts'
import { intervalBucket } from '../../indexer/candles/live-candles.ts'
import type { ChainNode } from '../../node/chain-node.ts'
import { CANDLE_INTERVALS, type CandleInterval, parseInterval } from '../../wire/candles.ts'
import { CandleSchema } from '../../wire/results/rest.ts'
import { resolveSymbol } from '../../wire/symbols.ts'
import { historyOf } from '../history-link.ts'
import { jsonResponse } from '../jsonrpc.ts'
import { bodyTooLargeMessage, readBodyCapped } from '../request-body.ts'
import { requireHistory } from './history-routes.ts'
import { IntQuery, LenientEnumQuery, Opt, TextQuery } from './query-params.ts'
import { errorReply, isObject, jsonReply, type RouteTable, readInput, serveRoutes } from './rest-route.ts'

export const CANDLES_LIMIT_DEFAULT = 500
export const CANDLES_LIMIT_MAX = 2_000
/** candleSnapshot returns at most this many candles per call. */
export const INFO_CANDLES_MAX = 5_000

export interface CandleRead {
  readonly marketId: number
  readonly interval: CandleInterval
  readonly fromMs: number
  readonly toMs: number
  readonly limit: number
  /** Wall clock now; the in-progress bucket is merged when toMs >= nowMs. */
  readonly nowMs: number
  /** More buckets than `limit` in range: keep the first (paging forward from fromMs) or the newest (default). */
  readonly pick?: 'first' | 'last'
}

/** Candles of a stored interval, with the in-progress bucket merged when the range reaches now. */
export async function readCandles(node: ChainNode, r: CandleRead): Promise<{ candles: CandleText[]; watermark: number }> {
  const h = requireHistory(node)
  const { value, watermarks } = await h.read('candles', {
    marketId: r.marketId,
    interval: r.interval,
    fromMs: r.fromMs,
    toMs: r.toMs,
    limit: r.limit,
    pick: r.pick,
  })
  if (r.toMs < r.nowMs) return { candles: value, watermark: watermarks.candle }
  const candles = h.pending.merge({
    marketId: r.marketId,
    watermark: watermarks.candle,
    fromMs: r.fromMs,
    toMs: r.toMs,
    limit: r.limit,
    stored: value,
    bucket: intervalBucket(r.interval),
    pick: r.pick,
  })
  return { candles, watermark: watermarks.candle }
}

/** The wire Candle (short keys). */
export const candleJson = (c: CandleText, symbol: string, interval: string) => ({
  t: c.t,
  T: c.close_t,
  s: symbol,
  i: interval,
  o: c.o,
  c: c.c,
  h: c.h,
  l: c.l,
  v: c.v,
  n: c.n,
})

const CANDLE_INTERVAL_QUERY = LenientEnumQuery(CANDLE_INTERVALS, 'a candle interval; anything else is 1h (docs/history-api.md#candles)')

/** The candleSnapshot body of POST /info; `type` is checked first, an unknown one is 400 `unknown request type: <type>`. */
const InfoType = Type.Literal('candleSnapshot')
const InfoRequest = Type.Object({
  coin: Type.String({ description: 'the market' }),
  interval: Opt(CANDLE_INTERVAL_QUERY),
  startTime: Opt(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'first bucket, ms', invalid: msMessage })),
  endTime: Opt(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'last bucket, ms', invalid: msMessage })),
})

function msMessage(name: string): string {
  return `${name} must be a non-negative integer of ms`
}

export const CANDLE_ROUTES = {
  candles: {
    method: 'GET',
    path: '/api/v1/candles',
    summary: 'Candles of a market, ascending by t',
    tags: ['history'],
    query: Type.Object({
      symbol: TextQuery('the market (required)'),
      interval: Opt(CANDLE_INTERVAL_QUERY),
      from: Opt(IntQuery('first bucket, ms; pages forward')),
      to: Opt(IntQuery('last bucket, ms')),
      limit: Opt(IntQuery(`default ${CANDLES_LIMIT_DEFAULT}, at most ${CANDLES_LIMIT_MAX}`)),
    }),
    responses: {
      '200': jsonReply('the candles', Type.Array(CandleSchema)),
      '400': errorReply('a malformed parameter'),
      '404': errorReply('an unknown market'),
      '500': errorReply('a missing required parameter (docs/errors.md#http-statuses)'),
      '503': errorReply('the history index is not running, or the node is gated'),
    },
  },
  info: {
    method: 'POST',
    path: '/info',
    summary: 'candleSnapshot: candles of a market, ascending by t (docs/history-api.md#candles)',
    tags: ['history'],
    body: Type.Object({ type: InfoType, req: InfoRequest }),
    responses: {
      '200': jsonReply('the candles; [] for an unknown market', Type.Array(CandleSchema)),
      '400': errorReply('not JSON, an unknown type or a bad field'),
      '413': errorReply('the body is too large'),
      '500': errorReply('req.coin missing'),
    },
  },
} as const satisfies RouteTable

export function candleRoutes(node: ChainNode) {
  return serveRoutes(CANDLE_ROUTES, {
    candles: async ({ query }) => {
      const market = resolveSymbol(node.state.markets.values(), query.symbol)
      if (market === undefined) return jsonResponse({ error: `market ${query.symbol.slice(0, 20)} not found` }, 404)
      const interval = parseInterval(query.interval)
      const from = query.from
      const toMs = query.to ?? Number.MAX_SAFE_INTEGER
      const limit = Math.max(1, Math.min(CANDLES_LIMIT_MAX, query.limit ?? CANDLES_LIMIT_DEFAULT))
      // With `from` a client pages forward: the first `limit` buckets at or after it; without, the
      // newest `limit` (docs/history-api.md#candles).
      const pick = from === undefined ? 'last' : 'first'
      const { candles } = await readCandles(node, {
        marketId: market.marketId,
        interval,
        fromMs: from ?? 0,
        toMs,
        limit,
        nowMs: Date.now(),
        pick,
      })
      return jsonResponse(candles.map((c) => candleJson(c, market.symbol, interval)))
    },
    info: async ({ request }) => {
      const text = await readBodyCapped(request)
      if (text === undefined) return jsonResponse({ error: bodyTooLargeMessage() }, 413)
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        return jsonResponse({ error: 'the body must be a JSON object' }, 400)
      }
      const fields = isObject(body) ? body : {}
      if (!Value.Check(InfoType, fields.type))
        return jsonResponse({ error: `unknown request type: ${String(fields.type).slice(0, 64)}` }, 400)
      const r = readInput(InfoRequest, isObject(fields.req) ? fields.req : {}, 'json', 'req.')
      const market = resolveSymbol(node.state.markets.values(), r.coin)
      if (market === undefined || historyOf(node) === undefined) return jsonResponse([])
      const interval = parseInterval(r.interval)
      const fromMs = r.startTime ?? 0
      const toMs = r.endTime ?? Number.MAX_SAFE_INTEGER
      const { candles } = await readCandles(node, {
        marketId: market.marketId,
        interval,
        fromMs,
        toMs,
        limit: INFO_CANDLES_MAX,
        nowMs: Date.now(),
      })
      return jsonResponse(candles.map((c) => candleJson(c, market.symbol, interval)))
    },
  })
}
