import { describe, expect, test } from 'bun:test'
import { ClosedOrderCache, HOT_CACHE_ENTRIES_MAX, HOT_CACHE_WINDOW_MS } from './order-hot-cache.ts'

describe('closed-order hot cache', () => {
  const closed = (orderId: number, timestampMs: number, clientOrderId: string | null = null) => ({
    orderId,
    owner: '0xa',
    marketId: 1,
    reason: 'Filled',
    remaining: '0',
    filled: '1',
    clientOrderId,
    height: orderId,
    timestampMs,
  })

  test('keeps 24 hours of block time and finds orders by id or client id', () => {
    const cache = new ClosedOrderCache()
    cache.add(closed(1, 0, 'x'))
    cache.add(closed(2, 1_000, 'y'))
    expect(cache.byClientId('0xa', 1, 'x')?.orderId).toBe(1)
    cache.add(closed(3, HOT_CACHE_WINDOW_MS + 500, 'x'))
    expect(cache.get(1)).toBeUndefined()
    expect(cache.get(2)).toBeDefined()
    expect(cache.byClientId('0xa', 1, 'x')?.orderId).toBe(3)
    expect(cache.size).toBe(2)
  })

  test('past the entry cap the oldest closes go first, one for one, and the rest stay findable', () => {
    const cache = new ClosedOrderCache()
    const total = HOT_CACHE_ENTRIES_MAX + 25_000
    for (let id = 1; id <= total; id++) cache.add(closed(id, id, `c${id}`))
    expect(cache.size).toBe(HOT_CACHE_ENTRIES_MAX)
    const oldestKept = total - HOT_CACHE_ENTRIES_MAX + 1
    expect(cache.get(oldestKept - 1)).toBeUndefined()
    expect(cache.byClientId('0xa', 1, `c${oldestKept - 1}`)).toBeUndefined()
    expect(cache.get(oldestKept)?.orderId).toBe(oldestKept)
    expect(cache.byClientId('0xa', 1, `c${total}`)?.orderId).toBe(total)
  })

  test('an order added again counts from its latest close, not its first', () => {
    const cache = new ClosedOrderCache()
    cache.add(closed(1, 0))
    cache.add(closed(2, 10))
    cache.add(closed(1, 20))
    // Order 2's close is now the oldest: past its window it goes, order 1 (closed again at 20) stays.
    cache.add(closed(3, HOT_CACHE_WINDOW_MS + 15))
    expect(cache.get(2)).toBeUndefined()
    expect(cache.get(1)?.timestampMs).toBe(20)
    expect(cache.size).toBe(2)
    cache.add(closed(4, HOT_CACHE_WINDOW_MS + 25))
    expect(cache.get(1)).toBeUndefined()
    expect([cache.get(3)?.orderId, cache.get(4)?.orderId]).toEqual([3, 4])
  })

  test('a long run of closes keeps exactly the window, whatever was evicted before', () => {
    const cache = new ClosedOrderCache()
    const step = 1_000
    for (let id = 1; id <= 200_000; id++) cache.add(closed(id, id * step))
    // The window holds the closes whose time is within HOT_CACHE_WINDOW_MS of the newest.
    const newest = 200_000 * step
    const expected = Math.floor(HOT_CACHE_WINDOW_MS / step) + 1
    expect(cache.size).toBe(expected)
    expect(cache.get(200_000 - expected)).toBeUndefined()
    expect(cache.get(200_000 - expected + 1)?.timestampMs).toBe(newest - HOT_CACHE_WINDOW_MS)
  })
})
