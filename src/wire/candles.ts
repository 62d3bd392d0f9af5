// The 14 candle intervals (docs/history-api.md#candles) and the bucket rule, shared by the history
// index's stored candles and the hot feed's live bars so both have the same bucket edges. Buckets
// are aligned to multiples of the interval since the Unix epoch in UTC; `1M` is the calendar month
// in UTC, so its length varies.

export const CANDLE_INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '8h', '12h', '1d', '3d', '1w', '1M'] as const
export type CandleInterval = (typeof CANDLE_INTERVALS)[number]

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** Fixed lengths in ms; 1M has none (calendar month). */
const FIXED_MS: Record<Exclude<CandleInterval, '1M'>, number> = {
  '1m': MINUTE,
  '3m': 3 * MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': HOUR,
  '2h': 2 * HOUR,
  '4h': 4 * HOUR,
  '8h': 8 * HOUR,
  '12h': 12 * HOUR,
  '1d': DAY,
  '3d': 3 * DAY,
  '1w': 7 * DAY,
}

/** An interval name as given; anything unknown is `1h` (docs/history-api.md#candles). */
export function parseInterval(raw: unknown): CandleInterval {
  return (CANDLE_INTERVALS as readonly unknown[]).includes(raw) ? (raw as CandleInterval) : '1h'
}

export function isCandleInterval(s: string): s is CandleInterval {
  return (CANDLE_INTERVALS as readonly string[]).includes(s)
}

/** The fixed-length interval of exactly `ms`, if one of the 14 is that long. */
export function intervalOfMs(ms: number): CandleInterval | undefined {
  for (const [name, len] of Object.entries(FIXED_MS)) if (len === ms) return name as CandleInterval
  return undefined
}

/** Open time of the bucket holding tMs. */
export function bucketStart(interval: CandleInterval, tMs: number): number {
  if (interval === '1M') {
    const d = new Date(tMs)
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
  }
  const len = FIXED_MS[interval]
  return Math.floor(tMs / len) * len
}

/** Close time of the bucket opening at t (t + interval length; the next month's start for 1M). */
export function bucketEnd(interval: CandleInterval, t: number): number {
  if (interval === '1M') {
    const d = new Date(t)
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
  }
  return t + FIXED_MS[interval]
}
