/**
 * A market's trigger ladder (src/chain/triggers/trigger-ladder.ts) at growing sizes: one remove and one
 * insert of a random trigger per operation, as placing and cancelling stops does.
 *
 *   bun scripts/bench/trigger-ladder.ts [--ops 20000]
 */
import { TriggerLadder } from '../../src/chain/triggers/trigger-ladder.ts'
import { parseOptionsOrExit } from '../../src/lib/options.ts'
import { mulberry32 } from '../../src/lib/prng.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  {
    ops: { type: 'integer', default: 20_000, min: 1, max: 100_000_000, description: 'operations per size' },
  },
  { usage: 'bun scripts/bench/trigger-ladder.ts [options]', program: 'bun scripts/bench/trigger-ladder.ts' },
)
const OPS = flags.ops
/** Distinct trigger prices (ticks) the random triggers spread over. */
const PRICES = 100_000

// 1,000 twice: the first round warms the JIT up and is not printed.
for (const [round, size] of [1_000, 1_000, 10_000, 100_000, 500_000].entries()) {
  const next = mulberry32(7)
  const ladder = new TriggerLadder<{ id: number; ticks: number }>((t) => t.ticks)
  const items: { id: number; ticks: number }[] = []
  for (let i = 0; i < size; i++) {
    const t = { id: i, ticks: next() % PRICES }
    items.push(t)
    ladder.insert(t)
  }
  let id = size
  const started = Bun.nanoseconds()
  for (let j = 0; j < OPS; j++) {
    const at = next() % items.length
    if (!ladder.remove(items[at]!)) throw new Error('a trigger went missing')
    const t = { id: id++, ticks: next() % PRICES }
    items[at] = t
    ladder.insert(t)
  }
  if (round > 0) console.log(`trigger ladder of ${size}: ${((Bun.nanoseconds() - started) / OPS / 1000).toFixed(2)} us per remove + insert`)
}
