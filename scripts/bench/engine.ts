/**
 * Order operations per second of the state machine alone (src/chain), on one core.
 *
 *   bun scripts/bench/engine.ts [--blocks 600] [--seed 7] [--life 1000]
 *   bun --cpu-prof --cpu-prof-dir=/tmp/prof scripts/bench/engine.ts   # to profile
 *
 * A seeded random order flow on the dev genesis (ten funded accounts, BTC/ETH/SOL-USD around a
 * random-walking mid). Of the new orders, 88% are makers: Gtc (one in ten PostOnly) resting a few
 * ticks off the mid, each cancelled by its owner when its lifetime (uniform, mean --life ops) runs
 * out, or too late (OrderNotFound) when it filled first. The rest are takers crossing the mid: Ioc,
 * Gtc and Fok, one in eight reduce-only. So every path of placeOrder runs: matching, fills, fees,
 * self-trade prevention, margin checks, rejections and events. Blocks of 2,000 operations (the dev
 * network's max_tx_per_block) end as applyBlock ends them: marks of the markets that traded are
 * updated and the state root is committed.
 *
 * Two runs of the same flow from the same genesis:
 * 1. direct: placeOrder / cancelOrder on decoded orders (the engine proper), timed apart from the
 *    end-of-block commit, whose leaf counts are shown;
 * 2. via applyBlock with raw action objects: adds decoding of decimal strings, nonces, auth and
 *    the per-envelope results; applyBlock commits the root itself, so this rate includes it.
 * Order ids of run 1 name the orders run 2 cancels: the same flow on the same state yields the same
 * ids (the runs are checked to agree). Workload generation is outside the timed sections; the first
 * blocks warm the JIT up and are not timed.
 */
import { applyBlock, type EnvelopeInput } from '../../src/chain/apply.ts'
import { cancelOrder } from '../../src/chain/cancel-order.ts'
import type { ChainEvent } from '../../src/chain/events.ts'
import { createGenesisState } from '../../src/chain/genesis.ts'
import { updateMarks } from '../../src/chain/marks.ts'
import { placeOrder, type DecodedOrder } from '../../src/chain/place-order.ts'
import { commitStateRoot } from '../../src/chain/state-root.ts'
import type { Account, ChainState, Side, Tif } from '../../src/chain/types.ts'
import { formatDecimal } from '../../src/lib/decimal.ts'
import { DEV_ADDRESSES, devGenesis } from '../../src/node/dev-genesis.ts'

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const BLOCKS = arg('blocks', 600)
const SEED = arg('seed', 7)
/** Mean lifetime of a maker order in operations, after which its owner cancels it. */
const LIFETIME = arg('life', 1_000)
/** Operations per block: 2,000 is the dev max_tx_per_block; --block-ops 200000 is a 200 ms block at 1M ops/s. */
const BLOCK_OPS = arg('block-ops', 2_000)
/** Blocks run before the clock starts, so the JIT has compiled the hot paths. */
const WARMUP_BLOCKS = Math.min(60, Math.floor(BLOCKS / 5))

/** mulberry32: a tiny seeded PRNG, so every run sends the same flow. */
function mulberry32(seed: number): () => number {
  let s = seed | 0
  return () => {
    s = (s + 0x6d2b79f5) | 0
    let t = Math.imul(s ^ (s >>> 15), 1 | s)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return (t ^ (t >>> 14)) >>> 0
  }
}

/** One operation of the flow, independent of the state so both runs see the same one. */
interface Op {
  readonly account: number
  readonly marketId: number
  /** Index of the operation whose order this one cancels, or -1 for a place. */
  readonly cancels: number
  readonly order: DecodedOrder | null
}

const MARKETS = [
  { id: 1, mid: 650_000, spread: 5, maxLots: 2_000 }, // BTC-USD: 0.1 USD ticks, 0.0001 BTC lots
  { id: 2, mid: 350_000, spread: 5, maxLots: 2_000 }, // ETH-USD: 0.01 USD ticks, 0.001 ETH lots
  { id: 3, mid: 150_000, spread: 5, maxLots: 5_000 }, // SOL-USD: 0.001 USD ticks, 0.01 SOL lots
] as const

/**
 * Generates the flow block by block. Every maker order gets a lifetime when placed and a cancel
 * when it runs out (too late when the order filled meanwhile: OrderNotFound, as in real traffic).
 */
class Flow {
  private readonly next: () => number
  private readonly mids: number[] = MARKETS.map((m) => m.mid)
  /** Cancels due at each future operation index: the op index of the order and its owner. */
  private readonly due = new Map<number, Op[]>()
  private readonly ready: Op[] = []
  private readyAt = 0
  private opIndex = 0

  constructor(seed: number) {
    this.next = mulberry32(seed)
  }

  private int(n: number): number {
    return this.next() % n
  }

  block(): Op[] {
    const ops: Op[] = []
    for (let i = 0; i < BLOCK_OPS; i++, this.opIndex++) ops.push(this.op(this.opIndex))
    return ops
  }

  private op(k: number): Op {
    const due = this.due.get(k)
    if (due !== undefined) {
      this.due.delete(k)
      for (const c of due) this.ready.push(c)
    }
    if (this.readyAt < this.ready.length) {
      const c = this.ready[this.readyAt++]!
      if (this.readyAt === this.ready.length) this.ready.length = this.readyAt = 0
      return c
    }
    const mi = this.int(MARKETS.length)
    const market = MARKETS[mi]!
    const mid = (this.mids[mi]! += this.int(3) - 1)
    const side: Side = this.int(2) === 0 ? 'Bid' : 'Ask'
    const sign = side === 'Bid' ? 1 : -1
    const account = this.int(DEV_ADDRESSES.length)
    let tif: Tif = 'Gtc'
    let price: number
    let lots = 1 + this.int(market.maxLots)
    let reduceOnly = false
    if (this.int(100) < 88) {
      // Maker: rests on its own side of the mid (one in ten PostOnly) until its cancel comes due.
      price = mid - sign * (market.spread + this.int(40))
      if (this.int(10) === 0) tif = 'PostOnly'
      const at = k + 1 + this.int(2 * LIFETIME)
      const list = this.due.get(at)
      const cancel: Op = { account, marketId: market.id, cancels: k, order: null }
      if (list === undefined) this.due.set(at, [cancel])
      else list.push(cancel)
    } else {
      // Taker: crosses the mid by up to 40 ticks.
      price = mid + sign * this.int(40)
      lots = 1 + this.int(market.maxLots * 2)
      const t = this.int(20)
      tif = t < 13 ? 'Ioc' : t < 17 ? 'Gtc' : 'Fok'
      reduceOnly = this.int(8) === 0
    }
    return { account, marketId: market.id, cancels: -1, order: { marketId: market.id, side, priceTicks: price, qtyLots: lots, tif, reduceOnly, clientOrderId: undefined } }
  }
}

interface RunResult {
  /** Milliseconds in the timed blocks: applying the operations, and committing the root. */
  readonly execMs: number
  readonly commitMs: number
  readonly ops: number
  readonly blocks: number
  readonly rejects: Map<string, number>
  readonly fills: number
  /** Leaves folded into the root per timed block: objects replaced, orders in, orders out. */
  readonly leaves: { readonly replaced: number; readonly ordersIn: number; readonly ordersOut: number }
}

const freshState = (): ChainState => createGenesisState({ ...devGenesis(), max_tx_per_block: Math.max(BLOCK_OPS, 2_000) }).state

/** Run 1: placeOrder / cancelOrder directly; records the id of every accepted order. */
function runDirect(ids: Float64Array): RunResult {
  const state = freshState()
  const accounts: Account[] = DEV_ADDRESSES.map((a) => state.accounts.get(a)!)
  const flow = new Flow(SEED)
  const events: ChainEvent[] = []
  const traded = new Set<number>()
  const rejects = new Map<string, number>()
  const leaves = { replaced: 0, ordersIn: 0, ordersOut: 0 }
  let execMs = 0
  let commitMs = 0
  let fills = 0
  for (let b = 0; b < BLOCKS; b++) {
    const ops = flow.block()
    const ctx = { height: b + 1, timestampMs: 0, txHash: null, sourceTriggerId: null }
    state.height = ctx.height
    traded.clear()
    const t0 = performance.now()
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!
      events.length = 0
      const account = accounts[op.account]!
      const out = op.order === null
        ? cancelOrder(state, account, { market_id: op.marketId, order_id: ids[op.cancels]! }, events)
        : placeOrder(state, account, op.order, ctx, events)
      if (!out.ok) rejects.set(out.reason, (rejects.get(out.reason) ?? 0) + 1)
      else if (op.order !== null) ids[b * BLOCK_OPS + i] = out.orderId
      for (let e = 0; e < events.length; e++) {
        const ev = events[e]!
        if (ev.sub_kind === 'Filled') {
          traded.add(ev.market_id)
          fills++
        }
      }
    }
    const t1 = performance.now()
    if (b >= WARMUP_BLOCKS) countLeaves(state, leaves)
    const t2 = performance.now()
    // The end of applyBlock: marks of the markets that traded, then the root.
    updateMarks(state, traded)
    commitStateRoot(state)
    const t3 = performance.now()
    if (b >= WARMUP_BLOCKS) {
      execMs += t1 - t0
      commitMs += t3 - t2
    }
  }
  return { execMs, commitMs, ops: (BLOCKS - WARMUP_BLOCKS) * BLOCK_OPS, blocks: BLOCKS - WARMUP_BLOCKS, rejects, fills, leaves }
}

/** Adds the leaves the coming commit folds in (markets the marks may add are left out). */
function countLeaves(state: ChainState, leaves: { replaced: number; ordersIn: number; ordersOut: number }): void {
  leaves.replaced += state.dirty.size + state.dirtyLeaves.length
  for (const o of state.dirtyOrders) {
    if (state.books.get(o.marketId)?.get(o.id) === o) leaves.ordersIn++
    else if (o.leafKey !== undefined) leaves.ordersOut++
  }
}

/** Run 2: the same flow as raw actions through applyBlock (which commits the root itself). */
function runApply(ids: Float64Array): RunResult {
  const state = freshState()
  const flow = new Flow(SEED)
  const nonces = new Array<number>(DEV_ADDRESSES.length).fill(0)
  const rejects = new Map<string, number>()
  let execMs = 0
  let fills = 0
  for (let b = 0; b < BLOCKS; b++) {
    const envelopes: EnvelopeInput[] = flow.block().map((op) => {
      const o = op.order
      const m = state.markets.get(op.marketId)!
      const action = o === null
        ? { CancelOrder: { market_id: op.marketId, order_id: ids[op.cancels]! } }
        : {
            PlaceOrder: {
              market_id: o.marketId, side: o.side, price: formatDecimal(BigInt(o.priceTicks), m.priceDecimals),
              qty: formatDecimal(BigInt(o.qtyLots), m.sizeDecimals), tif: o.tif, reduce_only: o.reduceOnly,
            },
          }
      return { signer: DEV_ADDRESSES[op.account]!, nonce: nonces[op.account]!++, action, txHash: '0x00' }
    })
    const t0 = performance.now()
    const result = applyBlock(state, { height: b + 1, timestampMs: state.timestampMs + 2, envelopes })
    const t1 = performance.now()
    for (const r of result.envelopes) if (r.reason !== null) rejects.set(r.reason.code, (rejects.get(r.reason.code) ?? 0) + 1)
    for (const e of result.events) if (e.event.sub_kind === 'Filled') fills++
    if (b >= WARMUP_BLOCKS) execMs += t1 - t0
  }
  return { execMs, commitMs: 0, ops: (BLOCKS - WARMUP_BLOCKS) * BLOCK_OPS, blocks: BLOCKS - WARMUP_BLOCKS, rejects, fills, leaves: { replaced: 0, ordersIn: 0, ordersOut: 0 } }
}

const rate = (ops: number, ms: number): string => {
  const r = ops / (ms / 1000)
  return r >= 1e6 ? `${(r / 1e6).toFixed(2)}M` : `${(r / 1e6).toFixed(3)}M`
}
const usPerOp = (ms: number, ops: number): string => `${((ms * 1000) / ops).toFixed(2)} us/op`

const ids = new Float64Array(BLOCKS * BLOCK_OPS)
const direct = runDirect(ids)
const viaApply = runApply(ids)
const total = direct.execMs + direct.commitMs
const perBlock = (n: number) => Math.round(n / direct.blocks)
console.log(`engine: ${rate(direct.ops, total)} order ops/s (placeOrder/cancelOrder direct, one core, state root committed every ${BLOCK_OPS} ops; ${direct.blocks} blocks)`)
console.log(`  execution alone: ${rate(direct.ops, direct.execMs)} ops/s (${usPerOp(direct.execMs, direct.ops)}); state-root commit: ${(direct.commitMs / direct.blocks).toFixed(2)} ms/block, ${(100 * direct.commitMs / total).toFixed(0)}% of the time`)
console.log(`  leaves per block: ${perBlock(direct.leaves.replaced)} objects, ${perBlock(direct.leaves.ordersIn)} orders written, ${perBlock(direct.leaves.ordersOut)} removed (orders that rest and go within one block are never hashed)`)
console.log(`engine via applyBlock: ${rate(viaApply.ops, viaApply.execMs)} ops/s (raw action objects: decoding, nonces, auth, results; commit included; ${usPerOp(viaApply.execMs - total, viaApply.ops)} over direct)`)
const fmtRejects = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')
console.log(`  flow (all ${BLOCKS} blocks): ${direct.fills} fills; rejects: ${fmtRejects(direct.rejects)}`)
if (fmtRejects(direct.rejects) !== fmtRejects(viaApply.rejects) || direct.fills !== viaApply.fills) {
  console.log(`  WARNING: the applyBlock run diverged from the direct run: ${viaApply.fills} fills; ${fmtRejects(viaApply.rejects)}`)
}
