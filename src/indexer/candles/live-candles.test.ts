import { describe, expect, test } from 'bun:test'
import type { CandleText } from './candle-math.ts'
import { intervalBucket, PendingTrades } from './live-candles.ts'

const fine = (x: number) => BigInt(Math.round(x * 1e6)) * 1_000_000n
const M0 = Date.UTC(2026, 0, 1, 10, 0)

describe('in-progress candles from memory', () => {
  test('trades above the candle watermark merge into the stored bucket; those below are already in it', () => {
    const pending = new PendingTrades()
    pending.add(5, [{ marketId: 1, timestampMs: M0 + 1_000, price: fine(100), qty: fine(1) }])
    pending.add(6, [
      { marketId: 1, timestampMs: M0 + 2_000, price: fine(105), qty: fine(2) },
      { marketId: 2, timestampMs: M0 + 2_000, price: fine(1), qty: fine(1) },
    ])
    pending.add(7, [{ marketId: 1, timestampMs: M0 + 61_000, price: fine(99), qty: fine(0.5) }])
    const stored: CandleText[] = [{ t: M0, close_t: M0 + 60_000, o: '98', h: '101', l: '97', c: '100', v: '3', n: 2, last_height: 5 }]
    const merged = pending.merge({
      marketId: 1,
      watermark: 5,
      fromMs: 0,
      toMs: Number.MAX_SAFE_INTEGER,
      limit: 10,
      stored,
      bucket: intervalBucket('1m'),
    })
    expect(merged).toEqual([
      { t: M0, close_t: M0 + 60_000, o: '98', h: '105', l: '97', c: '105', v: '5', n: 3, last_height: 6 },
      { t: M0 + 60_000, close_t: M0 + 120_000, o: '99', h: '99', l: '99', c: '99', v: '0.5', n: 1, last_height: 7 },
    ])
    // Once the candle stage has folded block 6, only block 7 is merged.
    pending.dropThrough(6)
    expect(pending.size).toBe(1)
    expect(
      pending.merge({
        marketId: 1,
        watermark: 6,
        fromMs: M0 + 60_000,
        toMs: Number.MAX_SAFE_INTEGER,
        limit: 1,
        stored: [],
        bucket: intervalBucket('1m'),
      }),
    ).toHaveLength(1)
  })
})
