import { describe, expect, test } from 'bun:test'
import { bucketEnd, bucketStart, CANDLE_INTERVALS, intervalOfMs, parseInterval } from './candles.ts'

describe('candle intervals', () => {
  test('the 14 intervals; anything else is 1h', () => {
    expect(CANDLE_INTERVALS).toHaveLength(14)
    expect(parseInterval('15m')).toBe('15m')
    expect(parseInterval('1M')).toBe('1M')
    expect(parseInterval('2d')).toBe('1h')
    expect(parseInterval(undefined)).toBe('1h')
  })

  test.each([
    ['1m', Date.UTC(2026, 4, 5, 13, 7, 59, 999), Date.UTC(2026, 4, 5, 13, 7), Date.UTC(2026, 4, 5, 13, 8)],
    ['15m', Date.UTC(2026, 4, 5, 13, 29), Date.UTC(2026, 4, 5, 13, 15), Date.UTC(2026, 4, 5, 13, 30)],
    ['4h', Date.UTC(2026, 4, 5, 13, 29), Date.UTC(2026, 4, 5, 12), Date.UTC(2026, 4, 5, 16)],
    ['1d', Date.UTC(2026, 4, 5, 23, 59), Date.UTC(2026, 4, 5), Date.UTC(2026, 4, 6)],
    // Weeks and 3-day buckets are aligned to multiples since the epoch (a Thursday).
    ['1w', Date.UTC(2026, 4, 5), Date.UTC(2026, 3, 30), Date.UTC(2026, 4, 7)],
    // Calendar months in UTC, of their own length, across a year end and a leap February.
    ['1M', Date.UTC(2028, 1, 29, 12), Date.UTC(2028, 1, 1), Date.UTC(2028, 2, 1)],
    ['1M', Date.UTC(2026, 11, 31, 23, 59), Date.UTC(2026, 11, 1), Date.UTC(2027, 0, 1)],
  ] as const)('%s bucket of %i is [%i, %i)', (interval, t, start, end) => {
    expect(bucketStart(interval, t)).toBe(start)
    expect(bucketEnd(interval, start)).toBe(end)
  })

  test('fixed lengths map back to their interval', () => {
    expect(intervalOfMs(60_000)).toBe('1m')
    expect(intervalOfMs(3 * 86_400_000)).toBe('3d')
    expect(intervalOfMs(90_000)).toBeUndefined()
  })
})
