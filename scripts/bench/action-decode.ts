// What a stored action costs to decode, per action: its JSON text (what the block store keeps and
// replay parses) with JSON.parse, against its canonical msgpack bytes (what admission hashes to
// sign, src/lib/msgpack.ts) with msgpackr's unpack, for the shapes of the benchmarks' loads: a
// PlaceOrder, a CancelOrder by client id and a 50-order BatchPlaceOrder. It answers whether replay
// would gain from storing its actions decoded in a binary form instead of as JSON: it would not
// (docs/performance.md, the twelfth session).
//   bun scripts/bench/action-decode.ts [--rounds 5]
import { Packr } from 'msgpackr'
import { encodeCanonical } from '../../src/lib/msgpack.ts'
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'
import { iocBatchAwayFromMark } from './batch-orders.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  defineOptions({
    rounds: {
      type: 'integer',
      default: 5,
      min: 1,
      max: 100,
      description: 'timed passes over each shape (the last is printed, after the JIT has warmed up)',
    },
  }),
  {
    usage: 'bun scripts/bench/action-decode.ts [--rounds N]',
    summary: 'Microseconds per stored action decoded from JSON and from msgpack.',
    program: 'bun scripts/bench/action-decode.ts',
  },
)

const placeOrder = (i: number) => ({
  PlaceOrder: {
    market_id: 1,
    side: i % 2 === 0 ? 'Bid' : 'Ask',
    price: `${55_000 + (i % 5_000)}.5`,
    qty: '0.001',
    tif: 'Gtc',
    reduce_only: false,
    client_order_id: `r${i % 150}-${i}`,
  },
})
const cancelOrder = (i: number) => ({ CancelOrder: { market_id: 1, client_order_id: `r${i % 150}-${i}` } })
const batchPlaceOrder = (i: number) => iocBatchAwayFromMark(i, 50)

const shapes = [
  { name: 'PlaceOrder', make: placeOrder, count: 20_000 },
  { name: 'CancelOrder', make: cancelOrder, count: 20_000 },
  { name: 'BatchPlaceOrder (50 orders)', make: batchPlaceOrder, count: 1_000 },
] as const

// Plain objects out, as JSON.parse gives (no records, maps as objects).
const packr = new Packr({ useRecords: false, mapsAsObjects: true })

/** Microseconds per call of decode over every input, in the last of flags.rounds passes. */
function timed<T>(inputs: readonly T[], decode: (input: T) => unknown): number {
  let micros = 0
  let kept = 0
  for (let round = 0; round < flags.rounds; round++) {
    const started = performance.now()
    for (const input of inputs) if (decode(input) !== undefined) kept++
    micros = ((performance.now() - started) * 1_000) / inputs.length
  }
  if (kept === 0) throw new Error('nothing decoded')
  return micros
}

for (const shape of shapes) {
  const actions = Array.from({ length: shape.count }, (_, i) => shape.make(i))
  const texts = actions.map((a) => JSON.stringify(a))
  const bytes = actions.map((a) => encodeCanonical(a))
  const json = timed(texts, (t) => JSON.parse(t))
  const msgpack = timed(bytes, (b) => packr.unpack(b))
  console.log(
    `${shape.name}: JSON.parse ${json.toFixed(2)} µs (${texts[0]!.length} bytes), msgpackr unpack ${msgpack.toFixed(2)} µs (${bytes[0]!.length} bytes) per action`,
  )
}
