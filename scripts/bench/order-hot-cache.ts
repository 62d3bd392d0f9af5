// The closed-order hot cache (src/indexer/order-hot-cache.ts) under a steady stream of closes, as
// the block thread feeds it from every committed block: µs per close, printed every --every closes,
// before and after it reaches its entry cap (HOT_CACHE_ENTRIES_MAX). Constant per close is right;
// a figure that grows with the closes before it is the bug this bench was written for.
//   bun scripts/bench/order-hot-cache.ts [--closes 600000] [--every 100000]
import { ClosedOrderCache, HOT_CACHE_ENTRIES_MAX } from '../../src/indexer/order-hot-cache.ts'
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  defineOptions({
    closes: { type: 'integer', default: 600_000, min: 1_000, max: 50_000_000, description: 'closes added in all' },
    every: { type: 'integer', default: 100_000, min: 100, max: 10_000_000, description: 'closes per printed figure' },
  }),
  {
    usage: 'bun scripts/bench/order-hot-cache.ts [--closes N] [--every N]',
    summary: 'µs per close added to the closed-order hot cache, as it fills and past its cap.',
    program: 'bun scripts/bench/order-hot-cache.ts',
  },
)
const cache = new ClosedOrderCache()
console.log(`closed-order hot cache: cap ${HOT_CACHE_ENTRIES_MAX.toLocaleString('en-US')} entries`)
let orderId = 0
while (orderId < flags.closes) {
  const started = performance.now()
  const end = Math.min(flags.closes, orderId + flags.every)
  const count = end - orderId
  for (; orderId < end; orderId++) {
    cache.add({
      orderId,
      owner: '0x00000000000000000000000000000000000000aa',
      marketId: 1,
      reason: 'Cancelled',
      remaining: '0.001',
      filled: '0',
      clientOrderId: `c${orderId}`,
      height: orderId >> 10,
      timestampMs: 1_700_000_000_000 + orderId,
    })
  }
  const us = ((performance.now() - started) * 1000) / count
  console.log(`closes ${end.toLocaleString('en-US')}: ${us.toFixed(2)} µs per close, ${cache.size.toLocaleString('en-US')} cached`)
}
