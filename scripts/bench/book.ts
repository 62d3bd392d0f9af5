/**
 * Benchmark of the fast order book alone (src/chain/book/book.ts).
 *
 * A seeded workload of passive inserts, cancels of random resting orders and
 * aggressive orders (planMatch + fill of every planned maker + rest of the
 * remainder) against a book kept at about BOOK_DEPTH_ORDERS resting orders
 * spread over SPREAD_TICKS price levels per side.
 * Random numbers are generated before timing so only the book is measured.
 *
 * Usage: bun scripts/bench/book.ts [operations per round]
 * Prints e.g. `book: 3.2M ops/s` (median of several rounds).
 */

import type { BookOrder, Side } from '../../src/chain/book/book.ts'
import { OrderBook } from '../../src/chain/book/book.ts'
import { integerValue, OptionError, parseOptions, readCommandLine } from '../../src/lib/options.ts'
import { mulberry32 } from '../../src/lib/prng.ts'

const OPERATIONS = readCommandLine(() => {
  const usage = 'bun scripts/bench/book.ts [OPERATIONS]'
  const { positionals } = parseOptions(
    process.argv.slice(2),
    {},
    { usage, summary: 'OPERATIONS: operations per round (default 2000000)', positionals: true, program: 'bun scripts/bench/book.ts' },
  )
  if (positionals.length > 1) throw new OptionError(`usage: ${usage}`)
  return positionals[0] === undefined ? 2_000_000 : integerValue('OPERATIONS', positionals[0], { min: 1, max: 1_000_000_000 })
})
const SEED = 0x5eed
/** Resting orders placed before timing starts, and the depth the workload keeps. */
const BOOK_DEPTH_ORDERS = 10_000
const MID = 100_000
/** Passive orders rest within this many ticks of the mid. */
const SPREAD_TICKS = 50
/** Fills a single aggressive order may plan. */
const MAX_FILLS = 64
const OWNERS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']

type Order = BookOrder

interface Result {
  ops: number
  inserts: number
  cancels: number
  matches: number
  fills: number
  ns: number
  finalSize: number
  finalLevels: number
}

function run(operations: number): Result {
  const rnd = mulberry32(SEED)
  // Pre-generated randomness: [kind, a, b, c] per operation.
  const rand = new Uint32Array(operations * 4)
  for (let i = 0; i < rand.length; i++) rand[i] = rnd()

  const book = new OrderBook<Order>()
  // Live ids with O(1) swap-removal: pos[id] = index in live, or -1.
  const maxIds = BOOK_DEPTH_ORDERS + operations + 1
  const live = new Int32Array(maxIds)
  const pos = new Int32Array(maxIds).fill(-1)
  let liveCount = 0
  let nextId = 1
  const track = (id: number) => {
    pos[id] = liveCount
    live[liveCount++] = id
  }
  const untrack = (id: number) => {
    const i = pos[id]!
    const last = live[--liveCount]!
    live[i] = last
    pos[last] = i
    pos[id] = -1
  }
  const passive = (r1: number, r2: number): Order => {
    const side: Side = (r1 & 1) === 0 ? 'Bid' : 'Ask'
    const offset = 1 + ((r1 >>> 1) % SPREAD_TICKS)
    return {
      id: nextId++,
      owner: OWNERS[(r1 >>> 8) & 7]!,
      side,
      priceTicks: side === 'Bid' ? MID - offset : MID + offset,
      remainingLots: 1 + (r2 % 50),
    }
  }
  for (let i = 0; i < BOOK_DEPTH_ORDERS; i++) {
    const o = passive(rnd(), rnd())
    book.insert(o)
    track(o.id)
  }

  let inserts = 0
  let cancels = 0
  let matches = 0
  let fills = 0
  const start = Bun.nanoseconds()
  for (let op = 0; op < operations; op++) {
    const kind = rand[op * 4]! % 100
    const r1 = rand[op * 4 + 1]!
    const r2 = rand[op * 4 + 2]!
    // Cancels only while the book is above its target depth, so every round
    // measures a steady-state book of about BOOK_DEPTH_ORDERS orders.
    if (kind < 48 || (kind < 88 && liveCount <= BOOK_DEPTH_ORDERS)) {
      const o = passive(r1, r2)
      // The mid does not move, so a passive order crosses only when the
      // opposite side has been swept through the mid; then skip resting it.
      if (!book.wouldCross(o.side, o.priceTicks)) {
        book.insert(o)
        track(o.id)
      }
      inserts++
    } else if (kind < 88) {
      const id = live[r1 % liveCount]!
      book.remove(id)
      untrack(id)
      cancels++
    } else {
      // Aggressive limit order a few ticks through the opposite best.
      const side: Side = (r1 & 1) === 0 ? 'Bid' : 'Ask'
      const best = side === 'Bid' ? book.bestAsk() : book.bestBid()
      const through = (r1 >>> 1) % 4
      const limit = best === undefined ? MID : side === 'Bid' ? best + through : best - through
      const qty = 1 + (r2 % 120)
      const owner = OWNERS[(r1 >>> 8) & 7]!
      const plan = book.planMatch(side, owner, limit, qty, MAX_FILLS)
      for (const maker of plan.selfTradeMakers) {
        book.remove(maker.id)
        untrack(maker.id)
      }
      const planned = plan.fills
      for (let i = 0; i < planned.length; i++) {
        const f = planned[i]!
        book.fill(f.maker.id, f.lots)
        if (f.maker.remainingLots === 0) untrack(f.maker.id)
      }
      fills += planned.length
      const remaining = qty - plan.filledLots
      if (remaining > 0 && !plan.truncated) {
        const o: Order = { id: nextId++, owner, side, priceTicks: limit, remainingLots: remaining }
        book.insert(o)
        track(o.id)
      }
      matches++
    }
  }
  const ns = Bun.nanoseconds() - start
  if (book.size !== liveCount) throw new Error(`bench bookkeeping drifted: book ${book.size} vs tracked ${liveCount}`)
  const finalLevels = book.levels('Bid', SPREAD_TICKS * 4).length + book.levels('Ask', SPREAD_TICKS * 4).length
  return { ops: operations, inserts, cancels, matches, fills, ns, finalSize: book.size, finalLevels }
}

/** Timed rounds, each on a fresh book; the median is reported to damp noise from other processes. */
const ROUNDS = 5

run(Math.min(OPERATIONS, 200_000)) // warm-up: let the JIT settle
const results: Result[] = []
for (let i = 0; i < ROUNDS; i++) results.push(run(OPERATIONS))
const rates = results.map((r) => (r.ops / r.ns) * 1e9).sort((a, b) => a - b)
const median = rates[ROUNDS >> 1]!
const r = results[0]!
const m = (x: number) => `${(x / 1e6).toFixed(2)}M`
console.log(`book: ${m(median)} ops/s`)
console.log(
  `  median of ${ROUNDS} rounds (min ${m(rates[0]!)}, max ${m(rates[ROUNDS - 1]!)}, ${(1e9 / median).toFixed(0)} ns/op); ` +
    `each round ${r.ops} ops: ${r.inserts} inserts, ${r.cancels} cancels, ${r.matches} matches (${r.fills} maker fills), ` +
    `ending with ${r.finalSize} orders on ${r.finalLevels} levels`,
)
