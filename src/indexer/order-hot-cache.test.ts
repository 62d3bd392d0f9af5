import { describe, expect, test } from 'bun:test'
import { ClosedOrderCache, HOT_CACHE_WINDOW_MS } from './order-hot-cache.ts'

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
})
