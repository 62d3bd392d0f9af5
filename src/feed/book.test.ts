// FeedBook: aggregated levels kept sorted best-first as orders rest, shrink and leave.
import { describe, expect, test } from 'bun:test'
import { FeedBook, type FeedOrder } from './book.ts'

const order = (orderId: number, side: 'Bid' | 'Ask', priceTicks: number, lots: number): FeedOrder => ({
  orderId,
  side,
  priceTicks,
  lots,
  owner: '0xa',
  clientOrderId: null,
})

describe('FeedBook', () => {
  test('levels aggregate orders, best first on each side', () => {
    const b = new FeedBook()
    b.upsert(order(1, 'Bid', 100, 5))
    b.upsert(order(2, 'Bid', 102, 1))
    b.upsert(order(3, 'Bid', 100, 2))
    b.upsert(order(4, 'Ask', 105, 3))
    b.upsert(order(5, 'Ask', 104, 4))
    expect(b.levels('Bid', 10)).toEqual([
      [102, 1],
      [100, 7],
    ])
    expect(b.levels('Ask', 10)).toEqual([
      [104, 4],
      [105, 3],
    ])
    expect(b.levels('Ask', 1)).toEqual([[104, 4]])
    expect([b.bestBid(), b.bestAsk(), b.bidLevels, b.askLevels, b.orderCount]).toEqual([102, 104, 2, 2, 5])
  })

  const rows: { name: string; run: (b: FeedBook) => void; bids: [number, number][]; count: number }[] = [
    { name: 'a partial fill shrinks the level', run: (b) => b.setRemaining(1, 3), bids: [[100, 5]], count: 2 },
    { name: 'a full fill removes the order, the level stays for the other', run: (b) => b.setRemaining(1, 0), bids: [[100, 2]], count: 1 },
    {
      name: 'removing both orders removes the level',
      run: (b) => {
        b.remove(1)
        b.remove(2)
      },
      bids: [],
      count: 0,
    },
    {
      name: 'a re-rest at a new price moves the order (amend)',
      run: (b) => b.upsert(order(1, 'Bid', 99, 4)),
      bids: [
        [100, 2],
        [99, 4],
      ],
      count: 2,
    },
    {
      name: 'unknown ids are ignored (an IOC that never rested)',
      run: (b) => {
        b.remove(42)
        b.setRemaining(43, 1)
      },
      bids: [[100, 7]],
      count: 2,
    },
  ]
  for (const row of rows) {
    test(row.name, () => {
      const b = new FeedBook()
      b.upsert(order(1, 'Bid', 100, 5))
      b.upsert(order(2, 'Bid', 100, 2))
      row.run(b)
      expect(b.levels('Bid', 10)).toEqual(row.bids)
      expect(b.orderCount).toBe(row.count)
    })
  }

  test('version moves on every change and not on a no-op', () => {
    const b = new FeedBook()
    const v0 = b.version
    b.upsert(order(1, 'Ask', 10, 1))
    expect(b.version).toBeGreaterThan(v0)
    const v1 = b.version
    b.setRemaining(1, 1)
    b.remove(7)
    expect(b.version).toBe(v1)
  })

  test('many levels stay sorted (binary insertion)', () => {
    const b = new FeedBook()
    const prices = Array.from({ length: 200 }, (_, i) => ((i * 7919) % 1000) + 1)
    prices.forEach((p, i) => {
      b.upsert(order(i + 1, 'Ask', p, 1))
    })
    const asks = b.levels('Ask', 1000).map(([p]) => p)
    expect(asks).toEqual([...new Set(prices)].sort((x, y) => x - y))
  })
})
