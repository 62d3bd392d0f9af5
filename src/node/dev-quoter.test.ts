import { describe, expect, test } from 'bun:test'
import { mulberry32Unit } from '../lib/prng.ts'
import { quoteIntervalMs, stepPrice } from './dev-quoter.ts'

const limits = (
  l: Partial<{
    minIntervalMs: number
    maxLagMs: number
    minPriceTicks: number
    maxPriceTicks: number
    maxSpreadBps: number
    maxChangeBps: number
  }>,
) =>
  ({
    quoteLimits: {
      minIntervalMs: 100,
      maxLagMs: 10_000,
      minPriceTicks: 10_000,
      maxPriceTicks: 10_000_000,
      maxSpreadBps: 200,
      maxChangeBps: 500,
      ...l,
    },
  }) as never

describe('the dev quoter', () => {
  test('its walk is deterministic for a seed, moves at most 5 bps a step and stays within the price bounds', () => {
    const walk = (seed: number) => {
      const random = mulberry32Unit(seed)
      const out = [240_000]
      for (let i = 0; i < 1_000; i++) out.push(stepPrice(out.at(-1)!, random, limits({})))
      return out
    }
    expect(walk(7)).toEqual(walk(7))
    expect(walk(7)).not.toEqual(walk(8))
    const w = walk(7)
    for (let i = 1; i < w.length; i++) expect(Math.abs(w[i]! - w[i - 1]!) / w[i - 1]!).toBeLessThanOrEqual(0.0005 + 1 / w[i - 1]!)
    // Pressed against a bound, it stays inside it with room for the spread.
    const random = mulberry32Unit(1)
    let p = 10_001
    for (let i = 0; i < 200; i++) p = stepPrice(p, random, limits({}))
    expect(p).toBeGreaterThan(10_000)
  })

  test("its interval is 1 s within each market's min_quote_interval_ms and max_quote_lag_ms", () => {
    expect(quoteIntervalMs([limits({})], 1_000)).toBe(1_000)
    expect(quoteIntervalMs([limits({ maxLagMs: 1_500 })], 1_000)).toBe(500)
    expect(quoteIntervalMs([limits({ minIntervalMs: 800 })], 1_000)).toBe(1_600)
    expect(quoteIntervalMs([], 1_000)).toBe(1_000)
  })
})
