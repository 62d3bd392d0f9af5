import { describe, expect, test } from 'bun:test'
import { mulberry32 } from '../../lib/prng.ts'
import type { BookOrder, MatchPlan, Side } from './book.ts'
import { LEVEL_CHUNK_MAX, OrderBook } from './book.ts'
import { ReferenceBook } from './book-reference.ts'

type TestOrder = BookOrder

function order(id: number, side: Side, priceTicks: number, lots: number, owner = 'alice'): TestOrder {
  return { id, owner, side, priceTicks, remainingLots: lots }
}

/** A book pre-filled with orders; returns the book. */
function bookWith(...orders: TestOrder[]): OrderBook<TestOrder> {
  const book = new OrderBook<TestOrder>()
  for (const o of orders) book.insert(o)
  return book
}

function ids(orders: readonly BookOrder[]): number[] {
  return orders.map((o) => o.id)
}

/** A plan with makers replaced by their ids, for exact comparison. */
function planShape(plan: MatchPlan<BookOrder>): unknown {
  return {
    fills: plan.fills.map((f) => [f.maker.id, f.lots, f.priceTicks]),
    filledLots: plan.filledLots,
    selfTradeMakers: ids(plan.selfTradeMakers),
    truncated: plan.truncated,
  }
}

describe('OrderBook basics', () => {
  test('empty book', () => {
    const book = new OrderBook<TestOrder>()
    expect(book.size).toBe(0)
    expect(book.bestBid()).toBeUndefined()
    expect(book.bestAsk()).toBeUndefined()
    expect(book.levels('Bid', 10)).toEqual([])
    expect(book.ordersOf('Ask', 10)).toEqual([])
    expect(book.wouldCross('Bid', 1_000_000)).toBe(false)
    expect(book.wouldCross('Ask', 1)).toBe(false)
    expect(book.get(1)).toBeUndefined()
    expect(book.remove(1)).toBeUndefined()
    expect(planShape(book.planMatch('Bid', 'bob', null, 10, 10))).toEqual({
      fills: [],
      filledLots: 0,
      selfTradeMakers: [],
      truncated: false,
    })
  })

  test('price-time priority on both sides', () => {
    const book = bookWith(
      order(1, 'Ask', 101, 1),
      order(2, 'Ask', 100, 1),
      order(3, 'Ask', 100, 1),
      order(4, 'Ask', 102, 1),
      order(5, 'Bid', 98, 1),
      order(6, 'Bid', 99, 1),
      order(7, 'Bid', 97, 1),
      order(8, 'Bid', 99, 1),
    )
    expect(book.size).toBe(8)
    expect(book.bestAsk()).toBe(100)
    expect(book.bestBid()).toBe(99)
    expect(ids(book.ordersOf('Ask', 100))).toEqual([2, 3, 1, 4])
    expect(ids(book.ordersOf('Bid', 100))).toEqual([6, 8, 5, 7])
    expect(ids(book.ordersOf('Bid', 3))).toEqual([6, 8, 5])
    expect(ids(book.ordersOf('Bid', 0))).toEqual([])
    expect(book.get(3)?.priceTicks).toBe(100)
  })

  test('levels aggregates lots and counts from the best price outwards', () => {
    const book = bookWith(
      order(1, 'Ask', 101, 5),
      order(2, 'Ask', 100, 3),
      order(3, 'Ask', 100, 4),
      order(4, 'Ask', 103, 1),
      order(5, 'Bid', 95, 2),
      order(6, 'Bid', 96, 7),
      order(7, 'Bid', 95, 6),
    )
    expect(book.levels('Ask', 10)).toEqual([
      { priceTicks: 100, lots: 7, orders: 2 },
      { priceTicks: 101, lots: 5, orders: 1 },
      { priceTicks: 103, lots: 1, orders: 1 },
    ])
    expect(book.levels('Ask', 2)).toEqual([
      { priceTicks: 100, lots: 7, orders: 2 },
      { priceTicks: 101, lots: 5, orders: 1 },
    ])
    expect(book.levels('Bid', 10)).toEqual([
      { priceTicks: 96, lots: 7, orders: 1 },
      { priceTicks: 95, lots: 8, orders: 2 },
    ])
    expect(book.levels('Bid', 0)).toEqual([])
    book.setRemaining(3, 1)
    book.fill(7, 5)
    expect(book.levels('Ask', 1)).toEqual([{ priceTicks: 100, lots: 4, orders: 2 }])
    expect(book.levels('Bid', 10)).toEqual([
      { priceTicks: 96, lots: 7, orders: 1 },
      { priceTicks: 95, lots: 3, orders: 2 },
    ])
  })

  test('wouldCross compares against the opposite best, touching counts as crossing', () => {
    const book = bookWith(order(1, 'Ask', 100, 1), order(2, 'Bid', 90, 1))
    expect(book.wouldCross('Bid', 99)).toBe(false)
    expect(book.wouldCross('Bid', 100)).toBe(true)
    expect(book.wouldCross('Bid', 150)).toBe(true)
    expect(book.wouldCross('Ask', 91)).toBe(false)
    expect(book.wouldCross('Ask', 90)).toBe(true)
    expect(book.wouldCross('Ask', 1)).toBe(true)
    book.remove(1)
    expect(book.wouldCross('Bid', 150)).toBe(false)
  })

  test('insert validates its input and refuses to cross the book', () => {
    const book = bookWith(order(1, 'Ask', 100, 1), order(2, 'Bid', 90, 1))
    expect(() => book.insert(order(1, 'Ask', 105, 1))).toThrow(RangeError)
    expect(() => book.insert(order(3, 'Ask', 105, 0))).toThrow(RangeError)
    expect(() => book.insert(order(3, 'Ask', 105, -2))).toThrow(RangeError)
    expect(() => book.insert(order(3, 'Ask', 105, 1.5))).toThrow(RangeError)
    expect(() => book.insert(order(3, 'Ask', 0, 1))).toThrow(RangeError)
    expect(() => book.insert(order(3, 'Ask', 100.5, 1))).toThrow(RangeError)
    expect(() => book.insert(order(3, 'Ask', 90, 1))).toThrow(RangeError)
    expect(() => book.insert(order(3, 'Bid', 100, 1))).toThrow(RangeError)
    expect(() => book.insert({ ...order(3, 'Ask', 105, 1), side: 'Sell' as Side })).toThrow(RangeError)
    expect(() => book.insert(order(-1, 'Ask', 105, 1))).toThrow(RangeError)
    expect(() => book.insert(order(0.5, 'Ask', 105, 1))).toThrow(RangeError)
    expect(() => book.insert(order(2 ** 53, 'Ask', 105, 1))).toThrow(RangeError)
    expect(() => book.insert(order(3, 'Ask', 105, Number.MAX_SAFE_INTEGER))).not.toThrow()
    expect(() => book.insert(order(4, 'Ask', 105, 1))).toThrow(RangeError) // level total would overflow
    expect(book.size).toBe(3)
    expect(book.levels('Ask', 5)).toEqual([
      { priceTicks: 100, lots: 1, orders: 1 },
      { priceTicks: 105, lots: Number.MAX_SAFE_INTEGER, orders: 1 },
    ])
  })
})

describe('OrderBook.planMatch', () => {
  test('walks best price first then FIFO, partially filling the last maker, at maker prices', () => {
    const book = bookWith(
      order(1, 'Ask', 101, 5, 'm1'),
      order(2, 'Ask', 100, 3, 'm2'),
      order(3, 'Ask', 100, 4, 'm3'),
      order(4, 'Ask', 102, 9, 'm4'),
    )
    const before = JSON.stringify([book.levels('Ask', 10), book.ordersOf('Ask', 10)])
    const plan = book.planMatch('Bid', 'taker', 101, 10, 100)
    expect(planShape(plan)).toEqual({
      fills: [
        [2, 3, 100],
        [3, 4, 100],
        [1, 3, 101],
      ],
      filledLots: 10,
      selfTradeMakers: [],
      truncated: false,
    })
    // Planning is pure.
    expect(JSON.stringify([book.levels('Ask', 10), book.ordersOf('Ask', 10)])).toBe(before)
    expect(plan.fills[0]?.maker).toBe(book.get(2)!)
  })

  test('stops at the limit price; null limit sweeps every level', () => {
    const book = bookWith(order(1, 'Bid', 100, 2, 'm'), order(2, 'Bid', 99, 2, 'm'), order(3, 'Bid', 98, 2, 'm'))
    expect(planShape(book.planMatch('Ask', 't', 101, 5, 10))).toEqual({ fills: [], filledLots: 0, selfTradeMakers: [], truncated: false })
    expect(planShape(book.planMatch('Ask', 't', 99, 10, 10))).toEqual({
      fills: [
        [1, 2, 100],
        [2, 2, 99],
      ],
      filledLots: 4,
      selfTradeMakers: [],
      truncated: false,
    })
    expect(book.planMatch('Ask', 't', null, 100, 10).filledLots).toBe(6)
  })

  test('applying a plan with fill() reduces, removes and drops emptied levels', () => {
    const book = bookWith(order(1, 'Ask', 100, 3, 'm'), order(2, 'Ask', 100, 4, 'm'), order(3, 'Ask', 101, 5, 'm'))
    const plan = book.planMatch('Bid', 't', null, 8, 100)
    for (const f of plan.fills) book.fill(f.maker.id, f.lots)
    expect(book.get(1)).toBeUndefined()
    expect(book.get(2)).toBeUndefined()
    expect(book.get(3)?.remainingLots).toBe(4)
    expect(book.bestAsk()).toBe(101)
    expect(book.levels('Ask', 10)).toEqual([{ priceTicks: 101, lots: 4, orders: 1 }])
    expect(book.size).toBe(1)
  })

  test('self-trade makers are skipped and listed, only at acceptable prices', () => {
    const book = bookWith(
      order(1, 'Ask', 100, 2, 'me'),
      order(2, 'Ask', 100, 2, 'other'),
      order(3, 'Ask', 101, 2, 'me'),
      order(4, 'Ask', 101, 2, 'other'),
      order(5, 'Ask', 105, 2, 'me'),
    )
    expect(planShape(book.planMatch('Bid', 'me', 102, 10, 100))).toEqual({
      fills: [
        [2, 2, 100],
        [4, 2, 101],
      ],
      filledLots: 4,
      selfTradeMakers: [1, 3],
      truncated: false,
    })
    // Once the quantity is filled the walk stops: later own orders are not listed.
    expect(planShape(book.planMatch('Bid', 'me', null, 2, 100))).toEqual({
      fills: [[2, 2, 100]],
      filledLots: 2,
      selfTradeMakers: [1],
      truncated: false,
    })
    // Only own orders in range: nothing fills, all are listed.
    const own = bookWith(order(1, 'Ask', 100, 2, 'me'), order(2, 'Ask', 101, 2, 'me'))
    expect(planShape(own.planMatch('Bid', 'me', null, 5, 100))).toEqual({
      fills: [],
      filledLots: 0,
      selfTradeMakers: [1, 2],
      truncated: false,
    })
  })

  test('maxFills truncation is reported only when another non-self maker was matchable', () => {
    const book = bookWith(
      order(1, 'Ask', 100, 1, 'a'),
      order(2, 'Ask', 100, 1, 'b'),
      order(3, 'Ask', 101, 1, 'me'),
      order(4, 'Ask', 102, 1, 'c'),
    )
    // Stops after 2 fills; a non-self maker (4) is still matchable.
    expect(planShape(book.planMatch('Bid', 'me', null, 10, 2))).toEqual({
      fills: [
        [1, 1, 100],
        [2, 1, 100],
      ],
      filledLots: 2,
      selfTradeMakers: [3],
      truncated: true,
    })
    // Past the limit nothing is matchable: own maker 3 is still listed, not truncated.
    expect(planShape(book.planMatch('Bid', 'me', 101, 10, 2))).toEqual({
      fills: [
        [1, 1, 100],
        [2, 1, 100],
      ],
      filledLots: 2,
      selfTradeMakers: [3],
      truncated: false,
    })
    // The quantity ran out exactly at maxFills: not truncated.
    expect(planShape(book.planMatch('Bid', 'me', null, 2, 2))).toEqual({
      fills: [
        [1, 1, 100],
        [2, 1, 100],
      ],
      filledLots: 2,
      selfTradeMakers: [],
      truncated: false,
    })
    // maxFills 0 plans nothing but reports that something was matchable.
    expect(planShape(book.planMatch('Bid', 'x', null, 1, 0))).toEqual({ fills: [], filledLots: 0, selfTradeMakers: [], truncated: true })
    expect(planShape(book.planMatch('Bid', 'x', 99, 1, 0))).toEqual({ fills: [], filledLots: 0, selfTradeMakers: [], truncated: false })
  })

  test('fillCap limits each maker, passes over makers capped to 0, and is asked in walk order', () => {
    const book = bookWith(
      order(1, 'Ask', 100, 5, 'a'),
      order(2, 'Ask', 100, 5, 'b'),
      order(3, 'Ask', 101, 5, 'me'),
      order(4, 'Ask', 102, 5, 'c'),
    )
    const asked: [number, number][] = []
    const cap = (maker: TestOrder, lots: number) => {
      asked.push([maker.id, lots])
      return maker.id === 1 ? 2 : maker.id === 2 ? 0 : lots
    }
    // Maker 1 fills 2 of 5, maker 2 is passed over, own maker 3 is listed (not asked), maker 4 fills the rest.
    expect(planShape(book.planMatch('Bid', 'me', null, 6, 10, cap))).toEqual({
      fills: [
        [1, 2, 100],
        [4, 4, 102],
      ],
      filledLots: 6,
      selfTradeMakers: [3],
      truncated: false,
    })
    expect(asked).toEqual([
      [1, 5],
      [2, 4],
      [4, 4],
    ])
    // A maker capped to 0 does not count towards maxFills, nor makes the plan truncated.
    expect(planShape(book.planMatch('Bid', 'x', 100, 10, 1, (m, lots) => (m.id === 1 ? 0 : lots)))).toEqual({
      fills: [[2, 5, 100]],
      filledLots: 5,
      selfTradeMakers: [],
      truncated: false,
    })
    expect(planShape(book.planMatch('Bid', 'x', 102, 20, 1, (m, lots) => (m.id === 1 ? 0 : lots)))).toEqual({
      fills: [[2, 5, 100]],
      filledLots: 5,
      selfTradeMakers: [],
      truncated: true,
    })
    // A cap outside 0..lots is a caller bug.
    expect(() => book.planMatch('Bid', 'x', null, 3, 10, () => 4)).toThrow(RangeError)
    expect(() => book.planMatch('Bid', 'x', null, 3, 10, () => 1.5)).toThrow(RangeError)
  })

  test('rejects invalid arguments', () => {
    const book = bookWith(order(1, 'Ask', 100, 1))
    expect(() => book.planMatch('Bid', 't', null, 0, 1)).toThrow(RangeError)
    expect(() => book.planMatch('Bid', 't', null, 1.5, 1)).toThrow(RangeError)
    expect(() => book.planMatch('Bid', 't', null, 1, -1)).toThrow(RangeError)
    expect(() => book.planMatch('Bid', 't', 0, 1, 1)).toThrow(RangeError)
  })
})

describe('OrderBook.remove / fill / setRemaining', () => {
  test('ids span the whole non-negative safe-integer range', () => {
    const extremes = [0, 1, TWO_POW_32 - 1, TWO_POW_32, TWO_POW_32 + 1, 3 * TWO_POW_32 + 1, Number.MAX_SAFE_INTEGER]
    const book = new OrderBook<TestOrder>()
    // Many ids sharing their low 32 bits, then the extremes: forces growth and long probe runs.
    for (let i = 0; i < 300; i++) book.insert(order(i * TWO_POW_32 + 7, 'Bid', 100 - (i % 10), 1))
    for (const id of extremes) book.insert(order(id, 'Ask', 200, 1))
    expect(book.size).toBe(300 + extremes.length)
    for (const id of extremes) expect(book.get(id)?.id).toBe(id)
    // Delete every other colliding id, then check the rest are all still reachable.
    for (let i = 0; i < 300; i += 2) expect(book.remove(i * TWO_POW_32 + 7)?.id).toBe(i * TWO_POW_32 + 7)
    for (let i = 0; i < 300; i++) expect(book.get(i * TWO_POW_32 + 7)?.id).toBe(i % 2 === 0 ? undefined : i * TWO_POW_32 + 7)
    for (const id of extremes) expect(book.remove(id)?.id).toBe(id)
    expect(book.size).toBe(150)
    expect(book.ordersOf('Ask', 10)).toEqual([])
  })

  test('remove from the middle of a FIFO and of the level array', () => {
    const book = bookWith(
      order(1, 'Bid', 100, 1),
      order(2, 'Bid', 100, 2),
      order(3, 'Bid', 100, 3),
      order(4, 'Bid', 99, 4),
      order(5, 'Bid', 98, 5),
    )
    expect(book.remove(2)?.remainingLots).toBe(2) // a cancel keeps the cancelled quantity
    expect(book.remove(2)).toBeUndefined()
    expect(ids(book.ordersOf('Bid', 10))).toEqual([1, 3, 4, 5])
    expect(book.remove(4)?.id).toBe(4) // empties a non-best level
    expect(book.levels('Bid', 10)).toEqual([
      { priceTicks: 100, lots: 4, orders: 2 },
      { priceTicks: 98, lots: 5, orders: 1 },
    ])
    book.remove(1)
    book.remove(3)
    expect(book.bestBid()).toBe(98)
    // Re-inserting at a removed price appends to a fresh level.
    book.insert(order(2, 'Bid', 100, 7))
    book.insert(order(6, 'Bid', 99, 1))
    expect(ids(book.ordersOf('Bid', 10))).toEqual([2, 6, 5])
    expect(book.size).toBe(3)
  })

  test('setRemaining amends down keeping time priority; 0 removes', () => {
    const book = bookWith(order(1, 'Ask', 100, 5), order(2, 'Ask', 100, 5), order(3, 'Ask', 101, 5))
    book.setRemaining(1, 2)
    expect(ids(book.ordersOf('Ask', 10))).toEqual([1, 2, 3])
    expect(book.get(1)?.remainingLots).toBe(2)
    book.setRemaining(1, 2) // unchanged is allowed
    expect(() => book.setRemaining(1, 3)).toThrow(RangeError)
    expect(() => book.setRemaining(1, -1)).toThrow(RangeError)
    expect(() => book.setRemaining(9, 1)).toThrow(RangeError)
    expect(book.levels('Ask', 1)).toEqual([{ priceTicks: 100, lots: 7, orders: 2 }])
    const first = book.get(1)!
    book.setRemaining(2, 0)
    book.setRemaining(1, 0)
    expect(book.get(1)).toBeUndefined()
    expect(first.remainingLots).toBe(0)
    expect(book.bestAsk()).toBe(101)
    expect(book.size).toBe(1)
  })

  test('fill validates the amount', () => {
    const maker = order(1, 'Ask', 100, 5)
    const book = bookWith(maker)
    expect(() => book.fill(1, 6)).toThrow(RangeError)
    expect(() => book.fill(1, 0)).toThrow(RangeError)
    expect(() => book.fill(2, 1)).toThrow(RangeError)
    book.fill(1, 2)
    expect(book.get(1)?.remainingLots).toBe(3)
    book.fill(1, 3)
    expect(maker.remainingLots).toBe(0) // a fully filled maker reads 0
    expect(book.size).toBe(0)
    expect(book.bestAsk()).toBeUndefined()
  })
})

// ---------------------------------------------------------------------------
// Differential test: the fast book against the naive reference.

/** The common public surface of both books. */
type AnyBook = OrderBook<TestOrder> | ReferenceBook<TestOrder>

function snapshot(book: AnyBook, depth: number): string {
  const side = (s: Side) => ({
    levels: book.levels(s, depth),
    orders: book.ordersOf(s, depth * 4).map((o) => [o.id, o.owner, o.priceTicks, o.remainingLots]),
  })
  return JSON.stringify({ size: book.size, bid: side('Bid'), ask: side('Ask') })
}

/**
 * How the workload picks order ids, to exercise the id index: increasing,
 * spread over the whole safe-integer range, sharing their low 32 bits, or
 * drawn from a small pool so ids are reused as soon as their order is gone.
 */
type IdMode = 'sequential' | 'sparse' | 'colliding' | 'reuse'

/** 2^32, to build ids above the 32-bit range with integer arithmetic. */
const TWO_POW_32 = 4_294_967_296

/**
 * Drives both books with the same random workload and fails at the first
 * divergence. Returns counters so the test can check the workload really
 * exercised every path.
 */
/** How deep and wide the workload's book is; WIDE spans many level chunks (book.ts LEVEL_CHUNK_MAX). */
interface BookShape {
  readonly targetSize: number
  /** Passive orders rest 1..this many ticks from the mid. */
  readonly passiveOffsetMax: number
  /** A market order's lots at most. */
  readonly sweepLotsMax: number
  /** Passive orders rested on each side before the random steps, one per tick from the mid outwards. */
  readonly prefillPerSide: number
}
const NARROW: BookShape = { targetSize: 250, passiveOffsetMax: 40, sweepLotsMax: 400, prefillPerSide: 0 }
const WIDE: BookShape = {
  targetSize: 3_000,
  passiveOffsetMax: 4 * LEVEL_CHUNK_MAX,
  sweepLotsMax: 30_000,
  prefillPerSide: 4 * LEVEL_CHUNK_MAX,
}

function runDifferential(seed: number, steps: number, idMode: IdMode, shape: BookShape = NARROW) {
  const TARGET_BOOK_SIZE = shape.targetSize
  const rnd = mulberry32(seed)
  const int = (lo: number, hi: number) => lo + (rnd() % (hi - lo + 1)) // inclusive
  const owners = ['a', 'b', 'c', 'd']
  const fast = new OrderBook<TestOrder>()
  const ref = new ReferenceBook<TestOrder>()
  const live: number[] = [] // ids that may still rest (pruned lazily)
  /** Every order ever created: [fast book's object, reference book's object]. */
  const objects = new Map<number, [TestOrder, TestOrder]>()
  let nextId = 1
  /** A candidate id in this mode's id space; it may be resting. */
  const candidateId = (): number => {
    switch (idMode) {
      case 'sequential':
        return nextId + int(0, 5)
      case 'sparse':
        return int(0, 2 ** 21 - 1) * TWO_POW_32 + rnd() // up to MAX_SAFE_INTEGER
      case 'colliding':
        return int(0, 2 ** 21 - 1) * TWO_POW_32 + int(0, 3)
      case 'reuse':
        return int(0, 399)
    }
  }
  /** A fresh id that is not resting in either book. */
  const newId = (step: number): number | undefined => {
    if (idMode === 'sequential') return nextId++
    // Bound: the pool (400) is larger than the book (<= ~300), so a free id turns up quickly.
    for (let attempt = 0; attempt < 10_000; attempt++) {
      const id = candidateId()
      const resting = fast.get(id) !== undefined
      if (resting !== (ref.get(id) !== undefined)) fail(step, `get(${id})`, resting, !resting)
      if (!resting) return id
    }
    return undefined
  }
  let mid = 10_000
  const stats = {
    matches: 0,
    fills: 0,
    selfTrades: 0,
    truncated: 0,
    rested: 0,
    cancels: 0,
    amends: 0,
    directFills: 0,
    rejects: 0,
    capped: 0,
    mostLevels: 0,
    widestSweep: 0,
  }

  const fail = (step: number, what: string, a: unknown, b: unknown): never => {
    throw new Error(`seed ${seed} step ${step}: ${what} differs\n fast: ${JSON.stringify(a)}\n  ref: ${JSON.stringify(b)}`)
  }
  const same = (step: number, what: string, a: unknown, b: unknown) => {
    const ja = JSON.stringify(a)
    const jb = JSON.stringify(b)
    if (ja !== jb) fail(step, what, ja, jb)
  }
  /** The two books' objects for `id` must agree, resting or not (fills mutate them). */
  const sameObject = (step: number, id: number) => {
    const [f, r] = objects.get(id)!
    if (f.remainingLots !== r.remainingLots) fail(step, `remainingLots of order ${id}`, f.remainingLots, r.remainingLots)
  }
  /** Picks a random id that still rests in both books, pruning dead ones. */
  const pickLive = (step: number): number | undefined => {
    // Bound: each iteration either returns or shrinks `live`.
    const attempts = live.length
    for (let i = 0; i < attempts; i++) {
      const idx = int(0, live.length - 1)
      const id = live[idx]!
      const f = fast.get(id)
      const r = ref.get(id)
      if ((f === undefined) !== (r === undefined)) fail(step, `get(${id})`, f, r)
      if (f !== undefined) return id
      live[idx] = live[live.length - 1]!
      live.pop()
    }
    return undefined
  }

  for (let i = 1; i <= shape.prefillPerSide; i++) {
    for (const side of ['Bid', 'Ask'] as const) {
      const id = newId(-1)!
      const priceTicks = side === 'Bid' ? mid - i : mid + i
      const pair: [TestOrder, TestOrder] = [
        { id, owner: owners[i % owners.length]!, side, priceTicks, remainingLots: int(1, 30) },
        { id, owner: owners[i % owners.length]!, side, priceTicks, remainingLots: 0 },
      ]
      pair[1].remainingLots = pair[0].remainingLots
      objects.set(id, pair)
      fast.insert(pair[0])
      ref.insert(pair[1])
      live.push(id)
    }
  }
  for (let step = 0; step < steps; step++) {
    if (int(0, 99) < 3) mid = Math.max(100, mid + int(-5, 5)) // slow drift so levels come and go
    // Keep the book deep but bounded: above the target size, cancel instead.
    const roll = fast.size > TARGET_BOOK_SIZE ? 60 : int(0, 99)
    if (roll < 55) {
      // New order: mostly passive quotes away from the mid, some aggressive
      // limit orders through it (usually crossing, sometimes sweeping several
      // levels) and a few market orders.
      const side: Side = int(0, 1) === 0 ? 'Bid' : 'Ask'
      const owner = owners[int(0, owners.length - 1)]!
      const market = roll < 3
      const aggressive = roll < 15
      const offset = aggressive ? int(-20, 2) : int(1, shape.passiveOffsetMax) // distance away from the mid, on the order's own side
      const priceTicks = side === 'Bid' ? mid - offset : mid + offset
      const lots = market && int(0, 3) === 0 ? int(1, shape.sweepLotsMax) : aggressive && int(0, 3) === 0 ? int(1, 400) : int(1, 30)
      const limit = market ? null : priceTicks
      const crossing = market || fast.wouldCross(side, priceTicks)
      same(step, 'wouldCross', crossing, market || ref.wouldCross(side, priceTicks))
      let remaining = lots
      let truncated = false
      if (crossing) {
        const maxFills = int(0, 9) === 0 ? 1000 : int(1, 6)
        // A third of the matches run with a per-maker cap (a pure function of the maker's id and the
        // lots offered, so both books get the same answers if they walk the same makers); both
        // books' calls are recorded and must agree.
        const capMode = int(0, 2) === 0
        const calls: [number[][], number[][]] = [[], []]
        const capOf =
          (book: 0 | 1) =>
          (maker: TestOrder, offered: number): number => {
            const k = maker.id % 5
            const lots = k === 0 ? 0 : k === 1 ? Math.max(0, offered - 3) : offered
            calls[book].push([maker.id, offered, lots])
            return lots
          }
        const pf = fast.planMatch(side, owner, limit, lots, maxFills, capMode ? capOf(0) : undefined)
        const pr = ref.planMatch(side, owner, limit, lots, maxFills, capMode ? capOf(1) : undefined)
        same(step, 'planMatch', planShape(pf), planShape(pr))
        stats.widestSweep = Math.max(stats.widestSweep, new Set(pf.fills.map((f) => f.priceTicks)).size)
        same(step, 'fillCap calls', calls[0], calls[1])
        for (const f of pf.fills) if (fast.get(f.maker.id) !== f.maker) fail(step, 'plan maker identity', f.maker.id, null)
        stats.matches++
        stats.fills += pf.fills.length
        stats.selfTrades += pf.selfTradeMakers.length
        if (pf.truncated) stats.truncated++
        for (const m of pf.selfTradeMakers) same(step, `remove(${m.id})`, fast.remove(m.id), ref.remove(m.id))
        for (let i = 0; i < pf.fills.length; i++) {
          fast.fill(pf.fills[i]!.maker.id, pf.fills[i]!.lots)
          ref.fill(pr.fills[i]!.maker.id, pr.fills[i]!.lots)
        }
        for (const f of pf.fills) sameObject(step, f.maker.id)
        for (const m of pf.selfTradeMakers) sameObject(step, m.id)
        // As the engine does, a maker the cap held back is taken off the book before a remainder rests.
        for (const [id, offered, allowed] of calls[0]) {
          if (allowed! >= offered! || fast.get(id!) === undefined) continue
          same(step, `remove capped ${id}`, fast.remove(id!), ref.remove(id!))
          stats.capped++
        }
        remaining -= pf.filledLots
        truncated = pf.truncated
      }
      const id = limit !== null && remaining > 0 && !truncated ? newId(step) : undefined
      if (id !== undefined) {
        // After a complete (non-truncated) match the remainder can never cross.
        if (fast.wouldCross(side, priceTicks))
          fail(step, 'remainder crosses after match', priceTicks, fast.levels(side === 'Bid' ? 'Ask' : 'Bid', 3))
        const pair: [TestOrder, TestOrder] = [
          { id, owner, side, priceTicks, remainingLots: remaining },
          { id, owner, side, priceTicks, remainingLots: remaining },
        ]
        objects.set(id, pair)
        fast.insert(pair[0])
        ref.insert(pair[1])
        live.push(id)
        stats.rested++
      }
    } else if (roll < 72) {
      // Cancel: usually a live order, sometimes an unknown id.
      const id = int(0, 19) === 0 ? candidateId() : pickLive(step)
      if (id !== undefined) {
        same(step, `remove(${id})`, fast.remove(id), ref.remove(id))
        if (objects.has(id)) sameObject(step, id)
        stats.cancels++
      }
    } else if (roll < 88) {
      // Amend down (sometimes to 0, sometimes unchanged).
      const id = pickLive(step)
      if (id !== undefined) {
        const lots = int(0, fast.get(id)!.remainingLots)
        fast.setRemaining(id, lots)
        ref.setRemaining(id, lots)
        sameObject(step, id)
        stats.amends++
      }
    } else if (roll < 97) {
      // A direct (partial or full) fill of a random resting order.
      const id = pickLive(step)
      if (id !== undefined) {
        const lots = int(1, fast.get(id)!.remainingLots)
        fast.fill(id, lots)
        ref.fill(id, lots)
        sameObject(step, id)
        stats.directFills++
      }
    } else {
      // Invalid operations must be rejected by both books and change nothing.
      const id = pickLive(step)
      if (id !== undefined) {
        const over = fast.get(id)!.remainingLots + 1
        let fastThrew = false
        let refThrew = false
        try {
          fast.fill(id, over)
        } catch {
          fastThrew = true
        }
        try {
          ref.fill(id, over)
        } catch {
          refThrew = true
        }
        same(step, 'over-fill rejected', fastThrew, refThrew)
        sameObject(step, id)
        if (!fastThrew) fail(step, 'over-fill accepted', over, null)
        stats.rejects++
      }
    }

    same(step, 'best', [fast.bestBid(), fast.bestAsk(), fast.size], [ref.bestBid(), ref.bestAsk(), ref.size])
    if (step % 256 === 0)
      stats.mostLevels = Math.max(stats.mostLevels, fast.levels('Bid', 1_000_000).length, fast.levels('Ask', 1_000_000).length)
    const bid = fast.bestBid()
    const ask = fast.bestAsk()
    if (bid !== undefined && ask !== undefined && bid >= ask) fail(step, 'crossed book', bid, ask)
    if (step % 8 === 0) {
      const depth = step % 64 === 0 ? 1_000_000 : int(0, 12)
      const a = snapshot(fast, depth)
      const b = snapshot(ref, depth)
      if (a !== b) fail(step, `snapshot(depth ${depth})`, a, b)
    }
  }
  const a = snapshot(fast, 1_000_000)
  const b = snapshot(ref, 1_000_000)
  if (a !== b) fail(steps, 'final snapshot', a, b)
  return stats
}

describe('OrderBook vs ReferenceBook (differential)', () => {
  const runs: [number, IdMode][] = [
    [1, 'sequential'],
    [7, 'sparse'],
    [42, 'colliding'],
    [1234, 'reuse'],
    [99991, 'sequential'],
    [31337, 'reuse'],
  ]
  const stepsPerSeed = 12_000 // 72,000 steps in total
  for (const [seed, idMode] of runs) {
    test(`seed ${seed}, ${idMode} ids: ${stepsPerSeed} random steps agree`, () => {
      const stats = runDifferential(seed, stepsPerSeed, idMode)
      // The workload must actually reach every path it is meant to test.
      expect(stats.matches).toBeGreaterThan(500)
      expect(stats.fills).toBeGreaterThan(500)
      expect(stats.selfTrades).toBeGreaterThan(50)
      expect(stats.truncated).toBeGreaterThan(50)
      expect(stats.rested).toBeGreaterThan(1000)
      expect(stats.cancels).toBeGreaterThan(500)
      expect(stats.amends).toBeGreaterThan(300)
      expect(stats.directFills).toBeGreaterThan(100)
      expect(stats.rejects).toBeGreaterThan(10)
      expect(stats.capped).toBeGreaterThan(50)
    })
  }
  test('a wide book (levels over several chunks, sweeps across chunk boundaries) agrees too', () => {
    for (const [seed, idMode] of [
      [5, 'sequential'],
      [77, 'sparse'],
    ] as const) {
      const stats = runDifferential(seed, 3_000, idMode, WIDE)
      expect(stats.mostLevels).toBeGreaterThan(3 * LEVEL_CHUNK_MAX)
      expect(stats.widestSweep).toBeGreaterThan(LEVEL_CHUNK_MAX)
      expect(stats.fills).toBeGreaterThan(500)
      expect(stats.cancels).toBeGreaterThan(300)
    }
  }, 30_000)
})
