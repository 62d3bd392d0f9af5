// The token bucket of both servers: the node's per-second /action limits (burst of a second, then
// the rate; weights; 0 disables) and the admin service's per-minute login limits (peek without
// counting, the seconds to wait), and the bound on the number of buckets.
import { describe, expect, test } from 'bun:test'
import { RateLimiter } from './rate-limit.ts'

describe('RateLimiter per second (the node)', () => {
  test('allows a second of requests, then refills at the rate', () => {
    let now = 1_000
    const rl = new RateLimiter(20, 1_000, () => now)
    const first = Array.from({ length: 25 }, () => rl.allow('a'))
    expect(first.filter(Boolean)).toHaveLength(20)
    expect(rl.allow('b')).toBe(true) // another key has its own bucket
    now += 100 // 2 tokens back
    expect(rl.allow('a')).toBe(true)
    expect(rl.allow('a')).toBe(true)
    expect(rl.allow('a')).toBe(false)
  })

  test('weights count against the bucket and a refused take costs nothing', () => {
    let now = 0
    const rl = new RateLimiter(10, 1_000, () => now)
    expect(rl.allow('k', 8)).toBe(true)
    expect(rl.allow('k', 5)).toBe(false)
    expect(rl.allow('k', 2)).toBe(true)
    now += 1_000
    expect(rl.allow('k', 10)).toBe(true)
  })

  test('capacity 0 disables the limit', () => {
    const rl = new RateLimiter(0, 1_000)
    for (let i = 0; i < 1000; i++) expect(rl.allow('x')).toBe(true)
    expect(rl.size).toBe(0)
  })
})

describe('RateLimiter per minute (the admin logins)', () => {
  test('allows `capacity` takes at once and per key, then says when to retry', () => {
    let now = 0
    const rl = new RateLimiter(3, 60_000, () => now) // a token every 20 s
    expect([rl.take('a'), rl.take('a'), rl.take('a')].every((d) => d.ok)).toBe(true)
    expect(rl.peek('a').ok).toBe(false)
    expect(rl.take('a')).toEqual({ ok: false, retryAfterSecs: 20 })
    expect(rl.take('b').ok).toBe(true)
    now = 15_000
    expect(rl.take('a')).toEqual({ ok: false, retryAfterSecs: 5 })
    now = 20_000
    expect(rl.peek('a').ok).toBe(true)
    expect(rl.take('a').ok).toBe(true)
    expect(rl.take('a').ok).toBe(false)
    now = 80_000 // a full period later the bucket is full again, not fuller
    expect([rl.take('a'), rl.take('a'), rl.take('a'), rl.take('a')].map((d) => d.ok)).toEqual([true, true, true, false])
  })

  test('peek never counts', () => {
    const rl = new RateLimiter(1, 1_000, () => 0)
    for (let i = 0; i < 5; i++) expect(rl.peek('a').ok).toBe(true)
    expect(rl.take('a').ok).toBe(true)
    expect(rl.take('a').ok).toBe(false)
    expect(rl.peek('a')).toEqual({ ok: false, retryAfterSecs: 1 })
  })

  test('the wait is at least a second, and a weight over the capacity waits a period', () => {
    let now = 0
    const rl = new RateLimiter(100, 1_000, () => now)
    expect(rl.allow('a', 100)).toBe(true)
    expect(rl.take('a')).toEqual({ ok: false, retryAfterSecs: 1 })
    now = 10_000
    expect(rl.take('a', 101)).toEqual({ ok: false, retryAfterSecs: 1 })
    expect(new RateLimiter(2, 60_000).peek('new', 3)).toEqual({ ok: false, retryAfterSecs: 60 })
  })
})

describe('the bound on buckets', () => {
  test('full-again buckets go first, then the least recently used tenth', () => {
    let now = 0
    const rl = new RateLimiter(2, 1_000, () => now, 10)
    for (let i = 0; i < 10; i++) rl.take(`idle${i}`)
    now = 5_000 // every bucket is full again
    rl.take('busy')
    rl.take('busy')
    expect(rl.size).toBe(1)
    for (let i = 0; i < 9; i++) rl.take(`k${i}`)
    expect(rl.size).toBe(10)
    rl.take('busy') // the most recently used of the ten
    rl.take('new') // none is full again: the least recently used (k0) goes
    expect(rl.size).toBe(10)
    expect(rl.take('busy').ok).toBe(false) // busy kept its (empty) bucket
    expect(rl.peek('k0', 2).ok).toBe(true) // gone: a new bucket would be full
    expect(rl.peek('k1', 2).ok).toBe(false) // kept, with the token it has left
  })
})
