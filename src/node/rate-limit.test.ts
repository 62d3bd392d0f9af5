import { describe, expect, test } from 'bun:test'
import { RateLimiter } from './rate-limit.ts'

describe('RateLimiter', () => {
  test('allows a second of requests, then refills at the rate', () => {
    let now = 1_000
    const rl = new RateLimiter(20, () => now)
    const first = Array.from({ length: 25 }, () => rl.take('a'))
    expect(first.filter(Boolean)).toHaveLength(20)
    expect(rl.take('b')).toBe(true) // another key has its own bucket
    now += 100 // 2 tokens back
    expect(rl.take('a')).toBe(true)
    expect(rl.take('a')).toBe(true)
    expect(rl.take('a')).toBe(false)
  })
  test('weights count against the bucket and a refused take costs nothing', () => {
    let now = 0
    const rl = new RateLimiter(10, () => now)
    expect(rl.take('k', 8)).toBe(true)
    expect(rl.take('k', 5)).toBe(false)
    expect(rl.take('k', 2)).toBe(true)
    now += 1_000
    expect(rl.take('k', 10)).toBe(true)
  })
  test('rate 0 disables the limit', () => {
    const rl = new RateLimiter(0)
    for (let i = 0; i < 1000; i++) expect(rl.take('x')).toBe(true)
  })
})
