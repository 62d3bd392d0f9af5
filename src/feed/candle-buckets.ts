// Candle buckets for the live bars (docs/history-api.md#candles). The interval list and the bucket
// rule are wire/candles.ts, shared with the history index, so live bars and stored candles share
// bucket edges: epoch-aligned fixed intervals, and `1M` as the calendar month in UTC.
import { bucketEnd, bucketStart, type CandleInterval } from '../wire/candles.ts'

const DAY_MS = 86_400_000

/** The bucket holding time `ms`: its open time t and close time T (= t + the interval's length). */
export function candleBucket(interval: CandleInterval, ms: number): { t: number; T: number } {
  const t = bucketStart(interval, ms)
  return { t, T: bucketEnd(interval, t) }
}

/** Start of the UTC day holding `ms`. */
export function utcDayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS
}
