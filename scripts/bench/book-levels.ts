/**
 * The order book's cost of a price level coming and going deep in the book, as the number of levels
 * on a side grows: one order per level; each operation cancels the only order of a random level
 * (the level goes) and rests a new one there (the level comes back). A side keeps its levels in
 * sorted chunks of at most LEVEL_CHUNK_MAX (src/chain/book/book.ts), so this is a shift within one
 * chunk plus a binary search over the chunks, not a move of every level between that price and
 * the best.
 *
 *   bun scripts/bench/book-levels.ts [--ops 20000]
 */
import { type BookOrder, OrderBook } from '../../src/chain/book/book.ts'
import { parseOptionsOrExit } from '../../src/lib/options.ts'
import { mulberry32 } from '../../src/lib/prng.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  {
    ops: { type: 'integer', default: 20_000, min: 1, max: 100_000_000, description: 'operations per round' },
  },
  { usage: 'bun scripts/bench/book-levels.ts [options]', program: 'bun scripts/bench/book-levels.ts' },
)
const OPS = flags.ops

// 1,000 twice: the first round warms the JIT up and is not printed.
for (const [round, levels] of [1_000, 1_000, 10_000, 100_000].entries()) {
  const next = mulberry32(3)
  const book = new OrderBook<BookOrder>()
  let id = 1
  const resting: BookOrder[] = []
  for (let i = 0; i < levels; i++) {
    const o: BookOrder = { id: id++, owner: 'maker', side: 'Bid', priceTicks: 1_000_000 - i, remainingLots: 1 }
    book.insert(o)
    resting.push(o)
  }
  const started = Bun.nanoseconds()
  for (let j = 0; j < OPS; j++) {
    const at = next() % resting.length
    book.remove(resting[at]!.id)
    const o: BookOrder = { id: id++, owner: 'maker', side: 'Bid', priceTicks: resting[at]!.priceTicks, remainingLots: 1 }
    book.insert(o)
    resting[at] = o
  }
  if (round > 0)
    console.log(
      `book with ${levels} bid levels: ${((Bun.nanoseconds() - started) / OPS / 1000).toFixed(2)} us per level removed and added back`,
    )
}
