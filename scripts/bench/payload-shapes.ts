/**
 * What the variety of payload shapes costs the state machine: blocks of resting PlaceOrders
 * (a quarter with a client_order_id), then CancelOrders of them, through executeBlock, with each
 * payload's keys in one order, or in one of seven (as clients built by different SDKs send them).
 * Envelopes reach the chain as the node's edge hands them over (kind, payload prepared by
 * atTheEdge); JSON round trips make their objects and strings as the node's decoding does.
 *
 *   bun scripts/bench/payload-shapes.ts [--orders 5000] [--blocks 60]
 *
 * Prints the median microseconds per envelope over the timed blocks (the first sixth warm the JIT
 * up), for each key-order count, twice over (the second pair runs on code the JIT compiled for
 * both). The edge gives every payload of a kind one shape, so the two should agree; before it did,
 * seven orders cost resting orders 0.5-26% and cancels 8-22% more than one (four pairs).
 */
import { commitStateRoot, createGenesisState, type EnvelopeInput, executeBlock } from '../../src/chain/index.ts'
import { parseOptionsOrExit } from '../../src/lib/options.ts'
import { DEV_ADDRESSES, devGenesis } from '../../src/node/dev-genesis.ts'
import { atTheEdge } from '../../src/node/edge-envelope.ts'
import { percentile } from './stats.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  {
    orders: { type: 'integer', default: 5_000, min: 1, max: 10_000_000, description: 'orders per block' },
    blocks: { type: 'integer', default: 60, min: 6, max: 1_000_000, description: 'blocks per shape (the first sixth warm up)' },
  },
  { usage: 'bun scripts/bench/payload-shapes.ts [options]', program: 'bun scripts/bench/payload-shapes.ts' },
)
const ORDERS = flags.orders
const BLOCKS = flags.blocks
const WARMUP = Math.floor(BLOCKS / 6)

/** The payload with its keys rotated and strided by `variant` (0 keeps them as given). */
function reordered(payload: Record<string, unknown>, variant: number): Record<string, unknown> {
  const keys = Object.keys(payload)
  const order = keys.map((_, i) => keys[(i * (variant + 1) + variant) % keys.length]!)
  const out: Record<string, unknown> = {}
  for (const k of [...new Set(order), ...keys]) if (!(k in out)) out[k] = payload[k]
  return out
}

function run(keyOrders: number): { place: number; cancel: number } {
  const state = createGenesisState({ ...devGenesis(), max_tx_per_block: Math.max(ORDERS, 2_000) }).state
  const nonces = DEV_ADDRESSES.map(() => 0)
  let variant = 0
  const envelope = (account: number, kind: string, payload: Record<string, unknown>): EnvelopeInput => {
    const action = JSON.parse(JSON.stringify({ [kind]: reordered(payload, variant++ % keyOrders) })) as Record<string, unknown>
    const signer = JSON.parse(JSON.stringify(DEV_ADDRESSES[account]!)) as string
    return atTheEdge({ signer, nonce: nonces[account]!++, action, txHash: `0x${nonces[account]!.toString(16).padStart(64, '0')}` }, kind)
  }
  const apply = (envelopes: EnvelopeInput[]) => {
    Bun.gc(true)
    const t0 = performance.now()
    const result = executeBlock(state, { height: state.height + 1, timestampMs: state.timestampMs + 1, envelopes })
    const ms = performance.now() - t0
    commitStateRoot(state)
    return { result, ms }
  }
  const place: number[] = []
  const cancel: number[] = []
  for (let b = 0; b < BLOCKS; b++) {
    const orders = Array.from({ length: ORDERS }, (_, i) => {
      const side = i % 2 === 0 ? 'Ask' : 'Bid'
      const payload: Record<string, unknown> = {
        market_id: 1 + (i % 3),
        side,
        price: String(side === 'Bid' ? 600 - (i % 50) : 800 + (i % 50)),
        qty: '1',
        tif: 'Gtc',
        reduce_only: false,
      }
      if (i % 4 === 0) payload.client_order_id = `c${b}-${i}`
      return envelope(i % DEV_ADDRESSES.length, 'PlaceOrder', payload)
    })
    const placed = apply(orders)
    const cancels: EnvelopeInput[] = []
    for (const e of placed.result.events) {
      if (e.sub_kind !== 'OrderAccepted') continue
      cancels.push(
        envelope((DEV_ADDRESSES as readonly string[]).indexOf(e.account), 'CancelOrder', { market_id: e.market_id, order_id: e.order_id }),
      )
    }
    if (cancels.length !== ORDERS) throw new Error(`block ${b}: ${cancels.length} of ${ORDERS} orders rested`)
    const cancelled = apply(cancels)
    if (b >= WARMUP) {
      place.push((placed.ms * 1000) / ORDERS)
      cancel.push((cancelled.ms * 1000) / ORDERS)
    }
  }
  const median = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    )
  return { place: median(place), cancel: median(cancel) }
}

for (const keyOrders of [1, 7, 1, 7]) {
  const r = run(keyOrders)
  console.log(
    `payload keys in ${keyOrders} order${keyOrders === 1 ? '' : 's'}: PlaceOrder (rests) ${r.place.toFixed(3)} us, CancelOrder ${r.cancel.toFixed(3)} us (median per envelope over ${BLOCKS - WARMUP} blocks of ${ORDERS})`,
  )
}
