// Candles (docs/history-api.md#candles): GET /api/v1/candles and POST /info candleSnapshot, both a
// bare Candle[] ascending by t. Stored buckets come from the candle stage; when the range reaches
// now, the trades of blocks the stage has not folded yet are merged in from memory. Empty buckets
// are not filled.
import { Elysia } from 'elysia'
import type { CandleText } from '../../indexer/candles/candle-math.ts'
import { intervalBucket } from '../../indexer/candles/live-candles.ts'
import { ReadError } from '../../indexer/paging.ts'
import type { ChainNode } from '../../node/chain-node.ts'
import { type CandleInterval, parseInterval } from '../../wire/candles.ts'
import { resolveSymbol } from '../../wire/symbols.ts'
import { historyOf } from '../history-link.ts'
import { jsonResponse } from '../jsonrpc.ts'
import { bodyTooLargeMessage, readBodyCapped } from '../request-body.ts'
import { intParam, type Query, required } from './history-params.ts'
import { answer, requireHistory } from './history-routes.ts'

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

export function candleRoutes(node: ChainNode) {
  return new Elysia()
    .get('/api/v1/candles', ({ query }) =>
      answer(async () => {
        const q = query as Query
        const symbol = required(q, 'symbol')
        const market = resolveSymbol(node.state.markets.values(), symbol)
        if (market === undefined) return jsonResponse({ error: `market ${symbol.slice(0, 20)} not found` }, 404)
        const interval = parseInterval(q.interval)
        const from = intParam(q, 'from')
        const toMs = intParam(q, 'to') ?? Number.MAX_SAFE_INTEGER
        const limit = Math.max(1, Math.min(CANDLES_LIMIT_MAX, intParam(q, 'limit') ?? CANDLES_LIMIT_DEFAULT))
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
      }),
    )
    .post(
      '/info',
      ({ request }) =>
        answer(async () => {
          const body = await readBodyCapped(request)
          if (body === undefined) return jsonResponse({ error: bodyTooLargeMessage() }, 413)
          let req: unknown
          try {
            req = JSON.parse(body)
          } catch {
            return jsonResponse({ error: 'the body must be a JSON object' }, 400)
          }
          const type = typeof req === 'object' && req !== null ? (req as { type?: unknown }).type : undefined
          if (type !== 'candleSnapshot') return jsonResponse({ error: `unknown request type: ${String(type).slice(0, 64)}` }, 400)
          const inner = (req as { req?: unknown }).req
          const r = (typeof inner === 'object' && inner !== null ? inner : {}) as Record<string, unknown>
          if (typeof r.coin !== 'string' || r.coin === '') throw new ReadError(500, 'missing required parameter: req.coin')
          const market = resolveSymbol(node.state.markets.values(), r.coin)
          if (market === undefined || historyOf(node) === undefined) return jsonResponse([])
          const interval = parseInterval(r.interval)
          const fromMs = msField(r, 'startTime', 0)
          const toMs = msField(r, 'endTime', Number.MAX_SAFE_INTEGER)
          const { candles } = await readCandles(node, {
            marketId: market.marketId,
            interval,
            fromMs,
            toMs,
            limit: INFO_CANDLES_MAX,
            nowMs: Date.now(),
          })
          return jsonResponse(candles.map((c) => candleJson(c, market.symbol, interval)))
        }),
      { parse: 'none' },
    )
}

function msField(r: Record<string, unknown>, name: string, fallback: number): number {
  const v = r[name]
  if (v === undefined || v === null) return fallback
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new ReadError(400, `req.${name} must be a non-negative integer of ms`)
  return v
}
