// TradeRing: newest first, offset skips the newest N, oldest dropped past the capacity.
import { describe, expect, test } from 'bun:test'
import { TRADE_RING_SIZE, TradeRing } from './trade-ring.ts'
import type { RecentTrade } from './types.ts'

const trade = (i: number): RecentTrade => ({
  block_height: i,
  event_seq: 0,
  timestamp_ms: i,
  market_id: 1,
  symbol: 'BTC-USD',
  price: String(i),
  qty: '1',
  notional: String(i),
  side: 'Bid',
})

describe('TradeRing', () => {
  test('pages newest first with offset and limit', () => {
    const r = new TradeRing(10)
    for (let i = 1; i <= 6; i++) r.push(trade(i))
    expect(r.page(0, 3).map((t) => t.block_height)).toEqual([6, 5, 4])
    expect(r.page(2, 3).map((t) => t.block_height)).toEqual([4, 3, 2])
    expect(r.page(5, 3).map((t) => t.block_height)).toEqual([1])
    expect(r.page(6, 3)).toEqual([])
  })

  test('drops the oldest once full', () => {
    const r = new TradeRing(4)
    for (let i = 1; i <= 9; i++) r.push(trade(i))
    expect(r.size).toBe(4)
    expect(r.page(0, 10).map((t) => t.block_height)).toEqual([9, 8, 7, 6])
  })

  test('the default ring holds 10,000 trades', () => {
    const r = new TradeRing()
    for (let i = 1; i <= TRADE_RING_SIZE + 5; i++) r.push(trade(i))
    expect(r.size).toBe(10_000)
    expect(r.page(9_999, 5).map((t) => t.block_height)).toEqual([6])
  })
})
