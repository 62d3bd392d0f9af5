import { describe, expect, test } from 'bun:test'
import { CHALLENGE_TTL_MS, CHALLENGES_MAX, ChallengeBook } from './challenges.ts'

function clock(start = 1_800_000_000_000) {
  let now = start
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms
    },
  }
}

describe('ChallengeBook', () => {
  test('issues 16 random bytes as 32 hex characters with the current time', () => {
    const c = clock()
    const book = new ChallengeBook(c.now)
    const a = book.issue()!
    expect(a.challenge).toMatch(/^[0-9a-f]{32}$/)
    expect(a.timestamp_ms).toBe(c.now())
    expect(book.find(a.timestamp_ms)).toBe(a.challenge)
  })

  test('challenges issued in the same millisecond get distinct timestamps', () => {
    const book = new ChallengeBook(clock().now)
    const ts = new Set(Array.from({ length: 50 }, () => book.issue()!.timestamp_ms))
    expect(ts.size).toBe(50)
  })

  test('a challenge expires after 5 minutes', () => {
    const c = clock()
    const book = new ChallengeBook(c.now)
    const a = book.issue()!
    c.advance(CHALLENGE_TTL_MS - 1)
    expect(book.find(a.timestamp_ms)).toBe(a.challenge)
    c.advance(1)
    expect(book.find(a.timestamp_ms)).toBeUndefined()
  })

  test('find does not consume; consume does', () => {
    const book = new ChallengeBook(clock().now)
    const a = book.issue()!
    expect(book.find(a.timestamp_ms)).toBe(a.challenge)
    expect(book.find(a.timestamp_ms)).toBe(a.challenge)
    book.consume(a.timestamp_ms)
    expect(book.find(a.timestamp_ms)).toBeUndefined()
  })

  test('expired challenges are dropped; a full book refuses new ones instead of evicting live ones', () => {
    const c = clock()
    const book = new ChallengeBook(c.now)
    for (let i = 0; i < 10; i++) book.issue()
    c.advance(CHALLENGE_TTL_MS)
    const first = book.issue()!
    expect(book.size).toBe(1)
    for (let i = 1; i < CHALLENGES_MAX; i++) expect(book.issue()).toBeDefined()
    expect(book.size).toBe(CHALLENGES_MAX)
    expect(book.issue()).toBeUndefined()
    // The challenge an operator is signing is still there.
    expect(book.find(first.timestamp_ms)).toBe(first.challenge)
    expect(book.msUntilRoom()).toBe(CHALLENGE_TTL_MS)
    c.advance(CHALLENGE_TTL_MS)
    expect(book.issue()).toBeDefined()
  })
})
