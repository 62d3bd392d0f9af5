// Candles of any interval length (getCandles interval_ms that is none of the 14 stored ones), built
// from the trades of the journal scan window (at most the last 10,000 blocks,
// docs/limits.md#journal-window).
import type { Database } from 'bun:sqlite'
import { fine } from '../amounts.ts'
import { accToText, type CandleAcc, type CandleText, foldTrade } from '../candles/candle-math.ts'
import { marketTradesSince } from '../tables/trades.ts'

export function customCandles(
  db: Database,
  a: { marketId: number; intervalMs: number; fromHeight: number; fromMs: number; toMs: number; limit: number },
): CandleText[] {
  const buckets = new Map<number, CandleAcc>()
  // Buckets whose open time is in [fromMs, toMs] (as for the stored intervals), whole.
  const firstT = Math.ceil(a.fromMs / a.intervalMs) * a.intervalMs
  const lastT = Math.floor(a.toMs / a.intervalMs) * a.intervalMs
  if (lastT < firstT) return []
  for (const tr of marketTradesSince(db, a.marketId, a.fromHeight, firstT, lastT + a.intervalMs - 1)) {
    const t = Math.floor(tr.timestamp_ms / a.intervalMs) * a.intervalMs
    buckets.set(t, foldTrade(buckets.get(t), t, t + a.intervalMs, fine(tr.price), fine(tr.qty), tr.height))
  }
  return [...buckets.values()]
    .sort((x, y) => x.t - y.t)
    .slice(-a.limit)
    .map(accToText)
}
