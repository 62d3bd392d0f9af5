// Live candles: fills fold into the open bar of every interval; a new bucket starts a new bar;
// 1M follows the UTC calendar month.
import { describe, expect, test } from 'bun:test'
import { candleBucket } from './candle-buckets.ts'
import { LiveCandles } from './live-candles.ts'

const T0 = Date.UTC(2026, 0, 31, 23, 59, 0) // 2026-01-31 23:59:00 UTC

describe('LiveCandles', () => {
  test('fills fold into one bar per bucket', () => {
    const c = new LiveCandles()
    c.addFill(100, 2, T0)
    c.addFill(105, 1, T0 + 10_000)
    c.addFill(95, 3, T0 + 20_000)
    c.addFill(101, 1, T0 + 30_000)
    expect(c.current('1m', T0 + 59_000)).toEqual({ t: T0, T: T0 + 60_000, o: 100, h: 105, l: 95, c: 101, v: 7, n: 4 })
  })

  test('a fill in the next bucket opens a new bar; the old bucket is no longer current', () => {
    const c = new LiveCandles()
    c.addFill(100, 2, T0)
    c.addFill(110, 1, T0 + 60_000)
    expect(c.current('1m', T0 + 60_000)).toMatchObject({ t: T0 + 60_000, o: 110, c: 110, v: 1, n: 1 })
    // 00:00 starts a new hour, day and month too: each with this fill as its own bar.
    for (const interval of ['1h', '1d', '1M'] as const)
      expect(c.current(interval, T0 + 60_000)).toMatchObject({ t: Date.UTC(2026, 1, 1), o: 110, n: 1 })
    expect(c.current('1m', T0 + 180_000)).toBeUndefined()
  })

  const buckets: [string, number, number, number][] = [
    ['1m', T0 + 5_000, T0, T0 + 60_000],
    ['15m', T0, Date.UTC(2026, 0, 31, 23, 45), Date.UTC(2026, 1, 1)],
    ['1d', T0, Date.UTC(2026, 0, 31), Date.UTC(2026, 1, 1)],
    ['1M', T0, Date.UTC(2026, 0, 1), Date.UTC(2026, 1, 1)],
    ['1M', Date.UTC(2026, 1, 15), Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1)],
  ]
  for (const [interval, at, t, T] of buckets) {
    test(`bucket ${interval} of ${new Date(at).toISOString()}`, () => {
      expect(candleBucket(interval as '1m', at)).toEqual({ t, T })
    })
  }
})
