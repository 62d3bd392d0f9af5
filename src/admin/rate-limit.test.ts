import { describe, expect, test } from 'bun:test'
import { RateLimiter } from './rate-limit.ts'

describe('RateLimiter', () => {
  test('allows `limit` hits per window and per key, then says when to retry', () => {
    let now = 0
    const rl = new RateLimiter(3, 60_000, () => now)
    expect([rl.hit('a'), rl.hit('a'), rl.hit('a')].every((d) => d.ok)).toBe(true)
    expect(rl.peek('a').ok).toBe(false)
    expect(rl.hit('a')).toEqual({ ok: false, retryAfterSecs: 60 })
    expect(rl.hit('b').ok).toBe(true)
    now = 30_000
    expect(rl.hit('a')).toEqual({ ok: false, retryAfterSecs: 30 })
    now = 60_000
    expect(rl.peek('a').ok).toBe(true)
    expect(rl.hit('a').ok).toBe(true)
  })

  test('peek never counts', () => {
    const rl = new RateLimiter(1, 1_000, () => 0)
    for (let i = 0; i < 5; i++) expect(rl.peek('a').ok).toBe(true)
    expect(rl.hit('a').ok).toBe(true)
    expect(rl.hit('a').ok).toBe(false)
  })
})
