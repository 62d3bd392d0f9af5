/**
 * Order operations per second of the state machine alone (src/chain), on one core.
 *
 *   bun scripts/bench/engine.ts [--blocks 600] [--block-ops 2000] [--seed 7] [--life 1000] [--only plain|full] [--runs 1] [--digest]
 *   bun scripts/bench/engine.ts --block-ops 200000 --blocks 12     # 200 ms blocks at 1M ops/s
 *   bun scripts/bench/engine.ts --block-ops 200000 --blocks 12 --only full --runs 5   # median of 5
 *   bun scripts/bench/engine.ts --block-ops 200000 --blocks 12 --only full --digest   # prints the replay digest
 *   bun --cpu-prof --cpu-prof-dir=/tmp/prof scripts/bench/engine.ts   # to profile
 *
 * A seeded random order flow on the dev genesis (ten funded accounts, BTC/ETH/SOL-USD around a
 * random-walking mid). Of the new orders, 88% are makers: Gtc (one in ten PostOnly) resting a few
 * ticks off the mid, each cancelled by its owner when its lifetime (uniform, mean --life ops) runs
 * out, or too late (OrderNotFound) when it filled first. The rest are takers crossing the mid: Ioc,
 * Gtc and Fok, one in eight reduce-only. So every path of placeOrder runs: matching, fills, fees,
 * self-trade prevention, margin checks, rejections and events. Blocks of --block-ops operations
 * (2,000: the dev network's max_tx_per_block) end as applyBlock ends them: marks of the markets that
 * traded are updated and the state root is committed.
 *
 * Three runs from the same genesis, one line each:
 * 1. direct: placeOrder / cancelOrder on decoded orders (the engine proper), timed apart from the
 *    end-of-block commit, whose leaf counts are shown;
 * 2. plain mix via applyBlock: the same flow as raw action objects (decoded from JSON, as the node
 *    hands them over, decimals packed at the edge): adds the unpacking of decimals, nonces, auth and
 *    the per-envelope results;
 * 3. full mix via applyBlock: batches, amends, mass cancels, expiries, reduce-only orders and
 *    trigger orders that fire as the marks move (see FullFlow below).
 * Runs 2 and 3 time applyBlock in its two parts (executeBlock, then commitStateRoot). Each line gives
 * the execution rate and the rate with the root committed every block, by the wall clock and (in
 * brackets) by the process's CPU time, steadier on a shared machine but counting the GC's helper
 * threads too. Order ids of run 1 name the orders run 2 cancels: the same flow on the same state
 * yields the same ids (the runs are checked to agree); run 3 checks its incremental root against a
 * full recomputation at the end. Workload generation is outside the timed sections, and so is the
 * collection of its garbage: before each block a full collection clears what the generator left
 * (its JSON round trips allocate several times what the engine does, and a collection that the
 * engine's allocations happen to trigger would otherwise mark and sweep it inside the timed block).
 * What the engine's own allocations cost the collector is shown beside each figure, not hidden: an
 * eden collection right after each block (timed apart) marks what the block allocated and keeps
 * (its events and results) and drops the rest. The first blocks warm the JIT up and are not timed.
 */
import { edenGC, fullGC } from 'bun:jsc'
import {
  type Account,
  type BlockResult,
  type ChainEvent,
  type ChainState,
  commitStateRoot,
  createGenesisState,
  type DecodedOrder,
  type EnvelopeInput,
  executeBlock,
  fullStateRoot,
  type Side,
  type Tif,
} from '../../src/chain/index.ts'
import { updateMarks } from '../../src/chain/markets/marks.ts'
import { cancelOrder } from '../../src/chain/orders/cancel-order.ts'
import { placeOrder } from '../../src/chain/orders/place-order.ts'
import { formatDecimal } from '../../src/lib/decimal.ts'
import { parseOptionsOrExit } from '../../src/lib/options.ts'
import { mulberry32 } from '../../src/lib/prng.ts'
import { DEV_ADDRESSES, devGenesis } from '../../src/node/dev-genesis.ts'
import { atTheEdge } from '../../src/node/edge-envelope.ts'

/** The command line (the table is also the --help text). */
const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  {
    blocks: { type: 'integer', default: 600, min: 1, max: 1_000_000, description: 'blocks per run (the first fifth, at most 60, warm up)' },
    'block-ops': {
      type: 'integer',
      default: 2_000,
      min: 1,
      max: 10_000_000,
      description: 'operations per block (2000: the dev max_tx_per_block)',
    },
    seed: { type: 'integer', default: 7, min: 0, max: 0xffff_ffff, description: 'seed of the order flow' },
    life: { type: 'integer', default: 1_000, min: 1, max: 100_000_000, description: 'mean lifetime of a maker order in operations' },
    only: { type: 'string', choices: ['plain', 'full'], description: 'only the direct and plain runs, or only the full mix' },
    runs: { type: 'integer', default: 1, min: 1, max: 1_000, description: 'runs of the full mix (median, best and worst printed)' },
    digest: { type: 'boolean', description: 'print the replay digest of the full mix' },
  },
  { usage: 'bun scripts/bench/engine.ts [options]', program: 'bun scripts/bench/engine.ts' },
)
const BLOCKS = flags.blocks
const SEED = flags.seed
/** Mean lifetime of a maker order in operations, after which its owner cancels it. */
const LIFETIME = flags.life
/** Operations per block: 2,000 is the dev max_tx_per_block; --block-ops 200000 is a 200 ms block at 1M ops/s. */
const BLOCK_OPS = flags['block-ops']
/** Runs of the full mix (--only full --runs 5 for a median on a noisy machine). */
const RUNS = flags.runs
/** Blocks run before the clock starts, so the JIT has compiled the hot paths. */
const WARMUP_BLOCKS = Math.min(60, Math.floor(BLOCKS / 5))

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
    const mid = this.mids[mi]! + (this.int(3) - 1)
    this.mids[mi] = mid
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
    return {
      account,
      marketId: market.id,
      cancels: -1,
      order: { marketId: market.id, side, priceTicks: price, qtyLots: lots, tif, reduceOnly, clientOrderId: undefined },
    }
  }
}

/**
 * Collects the workload generator's garbage before a timed block, so that the engine's timing is
 * not charged with it (the block's input itself stays alive, as a node's mempool keeps it).
 * A plain full collection (bun:jsc fullGC), not Bun.gc(true): that one also hands the allocators'
 * free pages back to the system, so the block's own allocations then faulted fresh pages in, some
 * 16,000 minor faults per 200,000-op block against 2,000 (process.resourceUsage()), with 8% of the
 * timed samples in the kernel. A running node's heap keeps its pages from one block to the next.
 */
const collectGeneratorGarbage = (): void => {
  fullGC()
}

/** Milliseconds of an eden collection of what the block just executed allocated: its GC cost. */
const collectBlockAllocations = (): number => {
  const t0 = performance.now()
  edenGC()
  return performance.now() - t0
}

/** Milliseconds of CPU time used by the process (all its threads): on a shared machine, steadier than the wall clock. */
const cpuMs = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

interface Timing {
  /** Milliseconds in the timed blocks: applying the operations, and committing the root; wall clock and CPU time. */
  readonly execMs: number
  /** Milliseconds of the eden collections right after the timed blocks (collectBlockAllocations). */
  readonly gcMs: number
  readonly commitMs: number
  readonly execCpuMs: number
  readonly commitCpuMs: number
  readonly ops: number
  readonly blocks: number
}

interface RunResult extends Timing {
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
  let gcMs = 0
  let execCpuMs = 0
  let commitCpuMs = 0
  let fills = 0
  for (let b = 0; b < BLOCKS; b++) {
    const ops = flow.block()
    const ctx = { height: b + 1, timestampMs: 0, txHash: null, sourceTriggerId: null }
    state.height = ctx.height
    traded.clear()
    collectGeneratorGarbage()
    const t0 = performance.now()
    const c0 = cpuMs()
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!
      events.length = 0
      const account = accounts[op.account]!
      const out =
        op.order === null
          ? cancelOrder(state, account, { market_id: op.marketId, order_id: ids[op.cancels]! }, events)
          : placeOrder(state, account, op.order, ctx, events)
      if (typeof out === 'number') ids[b * BLOCK_OPS + i] = out
      else if (out !== undefined) rejects.set(out.reason, (rejects.get(out.reason) ?? 0) + 1)
      for (let e = 0; e < events.length; e++) {
        const ev = events[e]!
        if (ev.sub_kind === 'Filled') {
          traded.add(ev.market_id)
          fills++
        }
      }
    }
    const t1 = performance.now()
    const c1 = cpuMs()
    const blockGcMs = collectBlockAllocations()
    if (b >= WARMUP_BLOCKS) countLeaves(state, leaves)
    const t2 = performance.now()
    const c2 = cpuMs()
    // The end of applyBlock: marks of the markets that traded, then the root.
    updateMarks(state, traded)
    commitStateRoot(state)
    const t3 = performance.now()
    const c3 = cpuMs()
    if (b >= WARMUP_BLOCKS) {
      execMs += t1 - t0
      gcMs += blockGcMs
      commitMs += t3 - t2
      execCpuMs += c1 - c0
      commitCpuMs += c3 - c2
    }
  }
  return {
    execMs,
    gcMs,
    commitMs,
    execCpuMs,
    commitCpuMs,
    ops: (BLOCKS - WARMUP_BLOCKS) * BLOCK_OPS,
    blocks: BLOCKS - WARMUP_BLOCKS,
    rejects,
    fills,
    leaves,
  }
}

/** Adds the leaves the coming commit folds in (markets the marks may add are left out). */
function countLeaves(state: ChainState, leaves: { replaced: number; ordersIn: number; ordersOut: number }): void {
  leaves.replaced += state.dirty.size + state.dirtyLeaves.length
  for (const o of state.dirtyOrders) {
    if (state.books.get(o.marketId)?.get(o.id) === o) leaves.ordersIn++
    else if (state.hash.hasNumbered(o.id)) leaves.ordersOut++
  }
}

/**
 * An envelope as the node hands it to applyBlock: its action decoded from JSON (the producer takes
 * it from the request body, replay from the stored action JSON), so its strings are flat, not the
 * concatenations the generator built, with its kind and its payload as the node's admission
 * prepares them (decimals packed at the edge, src/node/edge-envelope.ts atTheEdge). Outside the timed
 * section; edgeMs adds up what the packing costs (node work, not the state machine's), to be shown
 * beside the figures.
 */
let edgeMs = 0
const asDecoded = (e: EnvelopeInput): EnvelopeInput => {
  const action = JSON.parse(JSON.stringify(e.action)) as Record<string, unknown>
  const kind = Object.keys(action)[0]!
  const t0 = performance.now()
  const prepared = atTheEdge({ signer: e.signer, nonce: e.nonce, action, txHash: e.txHash }, kind)
  edgeMs += performance.now() - t0
  return prepared
}

/** Run 2: the same flow as raw actions through applyBlock (executeBlock, then the commit, timed apart). */
function runApply(ids: Float64Array): RunResult {
  const state = freshState()
  const flow = new Flow(SEED)
  const nonces = new Array<number>(DEV_ADDRESSES.length).fill(0)
  const rejects = new Map<string, number>()
  let execMs = 0
  let commitMs = 0
  let gcMs = 0
  let execCpuMs = 0
  let commitCpuMs = 0
  let fills = 0
  for (let b = 0; b < BLOCKS; b++) {
    const envelopes: EnvelopeInput[] = flow
      .block()
      .map((op) => {
        const o = op.order
        const m = state.markets.get(op.marketId)!
        const action =
          o === null
            ? { CancelOrder: { market_id: op.marketId, order_id: ids[op.cancels]! } }
            : {
                PlaceOrder: {
                  market_id: o.marketId,
                  side: o.side,
                  price: formatDecimal(BigInt(o.priceTicks), m.priceDecimals),
                  qty: formatDecimal(BigInt(o.qtyLots), m.sizeDecimals),
                  tif: o.tif,
                  reduce_only: o.reduceOnly,
                },
              }
        return { signer: DEV_ADDRESSES[op.account]!, nonce: nonces[op.account]!++, action, txHash: '0x00' }
      })
      .map(asDecoded)
    collectGeneratorGarbage()
    const t0 = performance.now()
    const c0 = cpuMs()
    const result = executeBlock(state, { height: b + 1, timestampMs: state.timestampMs + 2, envelopes })
    const t1 = performance.now()
    const c1 = cpuMs()
    const blockGcMs = collectBlockAllocations()
    const tc = performance.now()
    const cc = cpuMs()
    commitStateRoot(state)
    const t2 = performance.now()
    const c2 = cpuMs()
    for (const r of result.envelopes) if (r.reason !== null) rejects.set(r.reason.code, (rejects.get(r.reason.code) ?? 0) + 1)
    for (const e of result.events) if (e.sub_kind === 'Filled') fills++
    if (b >= WARMUP_BLOCKS) {
      execMs += t1 - t0
      gcMs += blockGcMs
      commitMs += t2 - tc
      execCpuMs += c1 - c0
      commitCpuMs += c2 - cc
    }
  }
  return {
    execMs,
    gcMs,
    commitMs,
    execCpuMs,
    commitCpuMs,
    ops: (BLOCKS - WARMUP_BLOCKS) * BLOCK_OPS,
    blocks: BLOCKS - WARMUP_BLOCKS,
    rejects,
    fills,
    leaves: { replaced: 0, ordersIn: 0, ordersOut: 0 },
  }
}

// ---------------------------------------------------------------------------------------------
// Run 3: the full mix, as raw actions through applyBlock.
//
// The same kind of maker/taker flow, plus every order action a trader sends: single PlaceOrder
// makers (Gtc, one in ten PostOnly, one in eight with expires_at_ms a few blocks ahead) and takers
// (Ioc/Gtc/Fok, one in eight reduce-only); BatchPlaceOrder quote ladders of 2-8 makers; BatchModify
// of 1-5 of the account's live orders (amend-down of the quantity, or a price change that
// re-places the order); MassCancel by Side, Owner or Ids; CancelOrder when a maker's lifetime runs
// out; PlaceTriggerOrder (stops and take-profits a little beyond the mark, market or limit, half
// reduce-only, some with an expiry) and CancelTriggerOrder, while the marks move with the flow so
// triggers fire at the ends of blocks. Each batch item counts as one operation; a MassCancel as one.
//
// The flow follows the chain as a trader would: between blocks it reads the block's events (outside
// the timed section) for the ids of its orders and triggers and for those that ended; a cancel or
// amend names an order by order_id when its id is known, by client_order_id when it was placed in
// the same block, and is not sent for an order known to be gone (a cancel of an order that filled
// within the block is still OrderNotFound, as in real traffic). Triggers are placed beyond the
// current mark, which moves only at block ends, so they never fire at once.
// ---------------------------------------------------------------------------------------------

/** A maker order of the full flow, as its owner knows it. */
interface Tracked {
  readonly account: number
  readonly marketId: number
  readonly side: Side
  priceTicks: number
  lots: number
  readonly cloid: string | undefined
  /** The order id once its block's events named it, else -1. */
  id: number
  /** Known to be gone (filled, cancelled, expired). */
  dead: boolean
}

/** A trigger of the full flow. */
interface TrackedTrigger {
  readonly account: number
  readonly marketId: number
  readonly cloid: string | undefined
  id: number
  dead: boolean
}

type Scheduled = { readonly order: Tracked } | { readonly trigger: TrackedTrigger }

/** Where a block's envelopes will learn their ids: per envelope, what it placed, in order. */
type Expect =
  | { readonly kind: 'orders'; readonly items: (Tracked | null)[] }
  | { readonly kind: 'modify' }
  | { readonly kind: 'trigger'; readonly trigger: TrackedTrigger }
  | null

/** Operations of the full flow by action kind (batch items counted one by one). */
type MixKind = 'PlaceOrder' | 'CancelOrder' | 'BatchPlaceOrder' | 'BatchModify' | 'MassCancel' | 'PlaceTriggerOrder' | 'CancelTriggerOrder'

class FullFlow {
  private readonly next: () => number
  private readonly mids: number[] = MARKETS.map((m) => m.mid)
  private readonly due = new Map<number, Scheduled[]>()
  private readonly ready: Scheduled[] = []
  private readyAt = 0
  private opIndex = 0
  private readonly nonces = new Array<number>(DEV_ADDRESSES.length).fill(0)
  /** Live (as far as known) makers per account, for amends. */
  private readonly live: Tracked[][] = DEV_ADDRESSES.map(() => [])
  private readonly ordersById = new Map<number, Tracked>()
  private readonly triggersById = new Map<number, TrackedTrigger>()
  private txCount = 0
  readonly mix = new Map<MixKind, number>()

  constructor(seed: number) {
    this.next = mulberry32(seed)
  }

  private int(n: number): number {
    return this.next() % n
  }

  private count(kind: MixKind, n: number): void {
    this.mix.set(kind, (this.mix.get(kind) ?? 0) + n)
  }

  /** Moves the operations due at the next n indexes into the ready queue. */
  private advance(n: number): void {
    for (let i = 0; i < n; i++, this.opIndex++) {
      const due = this.due.get(this.opIndex)
      if (due === undefined) continue
      this.due.delete(this.opIndex)
      for (const d of due) this.ready.push(d)
    }
  }

  private schedule(at: number, s: Scheduled): void {
    const list = this.due.get(at)
    if (list === undefined) this.due.set(at, [s])
    else list.push(s)
  }

  /** One block of BLOCK_OPS operations against the state as it stands before the block. */
  block(state: ChainState, timestampMs: number): { envelopes: EnvelopeInput[]; expects: Expect[]; ops: number } {
    const envelopes: EnvelopeInput[] = []
    const expects: Expect[] = []
    const blockEnd = this.opIndex + BLOCK_OPS
    const send = (account: number, action: Record<string, unknown>, expect: Expect) => {
      envelopes.push({
        signer: DEV_ADDRESSES[account]!,
        nonce: this.nonces[account]!++,
        action,
        txHash: `0x${(++this.txCount).toString(16).padStart(64, '0')}`,
      })
      expects.push(expect)
    }
    const price = (marketId: number, ticks: number) => formatDecimal(BigInt(ticks), state.markets.get(marketId)!.priceDecimals)
    const qty = (marketId: number, lots: number) => formatDecimal(BigInt(lots), state.markets.get(marketId)!.sizeDecimals)
    /** A maker order payload; schedules its cancel (by id later, by client id when due in this block). */
    const maker = (
      account: number,
      mi: number,
      side: Side,
      ticks: number,
      k: number,
    ): { payload: Record<string, unknown>; tracked: Tracked } => {
      const market = MARKETS[mi]!
      const lots = 1 + this.int(market.maxLots)
      const at = k + 1 + this.int(2 * LIFETIME)
      const cloid = at < blockEnd || this.int(4) === 0 ? `c${k}` : undefined
      const tracked: Tracked = { account, marketId: market.id, side, priceTicks: ticks, lots, cloid, id: -1, dead: false }
      // Nine in ten are cancelled when their lifetime runs out; the rest wait for fills, mass cancels or expiry.
      if (this.int(10) !== 0) this.schedule(at, { order: tracked })
      const payload: Record<string, unknown> = {
        market_id: market.id,
        side,
        price: price(market.id, ticks),
        qty: qty(market.id, lots),
        tif: this.int(10) === 0 ? 'PostOnly' : 'Gtc',
        reduce_only: false,
      }
      if (cloid !== undefined) payload.client_order_id = cloid
      if (this.int(8) === 0) payload.expires_at_ms = timestampMs + 2 * (1 + this.int(6))
      return { payload, tracked }
    }
    let ops = 0
    this.advance(1)
    while (ops < BLOCK_OPS) {
      const k = this.opIndex - 1
      if (this.readyAt < this.ready.length) {
        const s = this.ready[this.readyAt++]!
        if (this.readyAt === this.ready.length) this.ready.length = this.readyAt = 0
        if ('order' in s) {
          const o = s.order
          if (o.dead) continue
          const ref = o.cloid !== undefined && (o.id < 0 || this.int(2) === 0) ? { client_order_id: o.cloid } : { order_id: o.id }
          if (o.id < 0 && o.cloid === undefined) continue
          o.dead = true
          send(o.account, { CancelOrder: { market_id: o.marketId, ...ref } }, null)
          this.count('CancelOrder', 1)
        } else {
          const t = s.trigger
          if (t.dead || (t.id < 0 && t.cloid === undefined)) continue
          t.dead = true
          send(
            t.account,
            { CancelTriggerOrder: { market_id: t.marketId, ...(t.id >= 0 ? { trigger_id: t.id } : { client_order_id: t.cloid }) } },
            null,
          )
          this.count('CancelTriggerOrder', 1)
        }
        ops++
        this.advance(1)
        continue
      }
      const mi = this.int(MARKETS.length)
      const market = MARKETS[mi]!
      const mid = this.mids[mi]! + (this.int(3) - 1)
      this.mids[mi] = mid
      const side: Side = this.int(2) === 0 ? 'Bid' : 'Ask'
      const sign = side === 'Bid' ? 1 : -1
      const account = this.int(DEV_ADDRESSES.length)
      const r = this.int(100)
      let n = 1
      if (r < 40) {
        // A single maker.
        const { payload, tracked } = maker(account, mi, side, mid - sign * (market.spread + this.int(40)), k)
        this.live[account]!.push(tracked)
        send(account, { PlaceOrder: payload }, { kind: 'orders', items: [tracked] })
        this.count('PlaceOrder', 1)
      } else if (r < 52) {
        // A taker crossing the mid by up to 40 ticks.
        const t = this.int(20)
        const payload: Record<string, unknown> = {
          market_id: market.id,
          side,
          price: price(market.id, mid + sign * this.int(40)),
          qty: qty(market.id, 1 + this.int(market.maxLots * 2)),
          tif: t < 13 ? 'Ioc' : t < 17 ? 'Gtc' : 'Fok',
          reduce_only: this.int(8) === 0,
        }
        send(account, { PlaceOrder: payload }, { kind: 'orders', items: [null] })
        this.count('PlaceOrder', 1)
      } else if (r < 62) {
        // A quote ladder: both sides, a few ticks apart.
        n = Math.min(2 + this.int(7), BLOCK_OPS - ops)
        const orders: Record<string, unknown>[] = []
        const items: Tracked[] = []
        for (let i = 0; i < n; i++) {
          const s: Side = i % 2 === 0 ? 'Bid' : 'Ask'
          const sg = s === 'Bid' ? 1 : -1
          const { payload, tracked } = maker(account, mi, s, mid - sg * (market.spread + 2 * (i >> 1) + this.int(5)), k + i)
          orders.push(payload)
          items.push(tracked)
          this.live[account]!.push(tracked)
        }
        send(account, { BatchPlaceOrder: { orders } }, { kind: 'orders', items })
        this.count('BatchPlaceOrder', n)
      } else if (r < 74) {
        // Amends of the account's live orders: lower the quantity, or move the price.
        const mine = this.live[account]!
        const modifies: Record<string, unknown>[] = []
        const want = Math.min(1 + this.int(5), BLOCK_OPS - ops)
        for (let tries = 0; tries < 20 && modifies.length < want && mine.length > 0; tries++) {
          // Among the account's newest orders: the ones most likely still resting.
          const at = mine.length - 1 - this.int(Math.min(mine.length, 64))
          const o = mine[at]!
          if (o.dead || (o.id < 0 && o.cloid === undefined)) {
            mine.splice(at, 1)
            continue
          }
          const ref = o.id < 0 || (o.cloid !== undefined && this.int(2) === 0) ? { client_order_id: o.cloid } : { order_id: o.id }
          if (o.lots > 1 && this.int(2) === 0) {
            o.lots = Math.max(1, Math.floor(o.lots * 0.6))
            modifies.push({ market_id: o.marketId, ...ref, qty: qty(o.marketId, o.lots) })
          } else {
            o.priceTicks += (this.int(2) === 0 ? 1 : -1) * (1 + this.int(3))
            modifies.push({ market_id: o.marketId, ...ref, price: price(o.marketId, o.priceTicks) })
          }
        }
        n = modifies.length
        if (n === 0) continue
        send(account, { BatchModify: { modifies } }, { kind: 'modify' })
        this.count('BatchModify', n)
      } else if (r < 86) {
        // A stop or take-profit beyond the current mark (which moves only at the end of a block).
        const mark = state.markets.get(market.id)!.markTicks
        const above = this.int(2) === 0
        const d = 1 + this.int(80)
        const triggerTicks = above ? mark + d : mark - d
        const limit = this.int(10) < 3
        const at = k + 1 + this.int(2 * LIFETIME)
        const cloid = at < blockEnd || this.int(4) === 0 ? `t${k}` : undefined
        const tracked: TrackedTrigger = { account, marketId: market.id, cloid, id: -1, dead: false }
        // Nineteen in twenty are cancelled when their lifetime runs out (unless they fired); the rest
        // wait to fire or expire.
        if (this.int(20) !== 0) this.schedule(at, { trigger: tracked })
        const payload: Record<string, unknown> = {
          market_id: market.id,
          side,
          qty: qty(market.id, 1 + this.int(market.maxLots)),
          trigger_price: price(market.id, triggerTicks),
          trigger_direction: above ? 'Above' : 'Below',
          order_type: limit ? 'limit' : 'market',
          reduce_only: this.int(2) === 0,
        }
        if (limit) {
          payload.limit_price = price(market.id, triggerTicks + sign * 5)
          payload.tif = this.int(3) === 0 ? 'Gtc' : 'Ioc'
        }
        if (cloid !== undefined) payload.client_order_id = cloid
        if (this.int(4) === 0) payload.expires_at_ms = timestampMs + 2 * (1 + this.int(10))
        send(account, { PlaceTriggerOrder: payload }, { kind: 'trigger', trigger: tracked })
        this.count('PlaceTriggerOrder', 1)
      } else if (r < 87) {
        // A mass cancel: one side of a market, the whole market, or a few known ids.
        const c = this.int(3)
        if (c === 0) send(account, { MassCancel: { by: 'Side', market_id: market.id, side } }, null)
        else if (c === 1) send(account, { MassCancel: { by: 'Owner', market_id: market.id } }, null)
        else {
          const ids = this.live[account]!.filter((o) => !o.dead && o.id >= 0)
            .slice(0, 2 + this.int(6))
            .map((o) => o.id)
          if (ids.length === 0) continue
          send(account, { MassCancel: { by: 'Ids', order_ids: ids } }, null)
        }
        this.count('MassCancel', 1)
      } else {
        const { payload, tracked } = maker(account, mi, side, mid - sign * (market.spread + this.int(40)), k)
        this.live[account]!.push(tracked)
        send(account, { PlaceOrder: payload }, { kind: 'orders', items: [tracked] })
        this.count('PlaceOrder', 1)
      }
      ops += n
      this.advance(n)
    }
    // advance() ran one index ahead: the next block starts there.
    this.opIndex--
    for (let i = this.ready.length - 1; i >= this.readyAt; i--) this.schedule(this.opIndex, this.ready[i]!)
    this.ready.length = this.readyAt = 0
    const reordered = this.due.get(this.opIndex)
    if (reordered !== undefined) reordered.reverse()
    return { envelopes: envelopes.map(asDecoded), expects, ops }
  }

  /** Reads a block's events: ids of what the flow placed, and what ended. Outside the timed section. */
  learn(result: Omit<BlockResult, 'stateRoot'>, expects: Expect[]): void {
    for (let idx = 0; idx < result.envelopes.length; idx++) {
      const r = result.envelopes[idx]!
      const x = expects[idx]
      if (x === null || x === undefined) continue
      if (r.reason !== null) {
        if (x.kind === 'trigger') x.trigger.dead = true
        continue
      }
      let item = 0
      let replaced = -1
      for (let e = r.firstEvent; e < r.firstEvent + r.eventCount; e++) {
        const ev = result.events[e]!
        if (x.kind === 'orders') {
          if (ev.sub_kind === 'BatchItemRejected') {
            const t = x.items[ev.index]
            if (t) t.dead = true
            if (ev.index === item) item++
          } else if (ev.sub_kind === 'OrderAccepted') {
            const t = x.items[item++]
            if (t) {
              t.id = ev.order_id
              this.ordersById.set(ev.order_id, t)
            }
          }
        } else if (x.kind === 'modify') {
          if (ev.sub_kind === 'OrderDone' && ev.reason === 'Replaced') replaced = ev.order_id
          else if (ev.sub_kind === 'OrderAccepted' && replaced >= 0) {
            const t = this.ordersById.get(replaced)
            this.ordersById.delete(replaced)
            if (t) {
              t.id = ev.order_id
              this.ordersById.set(ev.order_id, t)
            }
            replaced = -1
          }
        } else if (ev.sub_kind === 'TriggerPlaced') {
          x.trigger.id = ev.trigger_id
          this.triggersById.set(ev.trigger_id, x.trigger)
        }
      }
      if (x.kind === 'trigger' && x.trigger.id < 0) x.trigger.dead = true
    }
    for (const ev of result.events) {
      if ((ev.sub_kind === 'OrderDone' && ev.reason !== 'Replaced') || ev.sub_kind === 'OrderExpired') {
        const t = this.ordersById.get(ev.order_id)
        if (t) {
          t.dead = true
          this.ordersById.delete(ev.order_id)
        }
      } else if (
        ev.sub_kind === 'TriggerActivated' ||
        ev.sub_kind === 'TriggerCancelled' ||
        ev.sub_kind === 'TriggerExpired' ||
        ev.sub_kind === 'TriggerFireFailed'
      ) {
        const t = this.triggersById.get(ev.trigger_id)
        if (t) {
          t.dead = true
          this.triggersById.delete(ev.trigger_id)
        }
      }
    }
    // Orders placed in the block whose OrderAccepted never came (rejected envelopes) are gone too.
    for (let idx = 0; idx < result.envelopes.length; idx++) {
      const x = expects[idx]
      if (x?.kind === 'orders') for (const t of x.items) if (t && t.id < 0) t.dead = true
    }
    for (let a = 0; a < this.live.length; a++) this.live[a] = this.live[a]!.filter((t) => !t.dead)
  }
}

interface FullResult extends Timing {
  readonly envelopes: number
  readonly rejects: Map<string, number>
  readonly itemRejects: Map<string, number>
  readonly fills: number
  readonly fired: number
  readonly mix: Map<MixKind, number>
  /** Whether the incremental root matched a full recomputation at the end. */
  readonly rootChecked: boolean
  /** With --digest: sha256 (first 16 hex digits) over every block's results, events and state root. */
  readonly digest: string | null
}

/** --digest: a replay digest that must not change when the engine is refactored (computed outside the timed sections). */
const DIGEST = flags.digest
const bigintAsString = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value)

/** Run 3: the full mix through executeBlock + commitStateRoot (applyBlock timed in its two parts). */
function runFull(): FullResult {
  const state = freshState()
  const flow = new FullFlow(SEED)
  const rejects = new Map<string, number>()
  const itemRejects = new Map<string, number>()
  let execMs = 0
  let commitMs = 0
  let gcMs = 0
  let execCpuMs = 0
  let commitCpuMs = 0
  let fills = 0
  let fired = 0
  let ops = 0
  let envelopeCount = 0
  let root: Uint8Array = new Uint8Array(0)
  const hasher = DIGEST ? new Bun.CryptoHasher('sha256') : null
  for (let b = 0; b < BLOCKS; b++) {
    if (b === WARMUP_BLOCKS) flow.mix.clear()
    const timestampMs = state.timestampMs + 2
    const { envelopes, expects, ops: blockOps } = flow.block(state, timestampMs)
    collectGeneratorGarbage()
    const t0 = performance.now()
    const c0 = cpuMs()
    const result = executeBlock(state, { height: b + 1, timestampMs, envelopes })
    const t1 = performance.now()
    const c1 = cpuMs()
    const blockGcMs = collectBlockAllocations()
    const tc = performance.now()
    const cc = cpuMs()
    root = commitStateRoot(state)
    const t2 = performance.now()
    const c2 = cpuMs()
    flow.learn(result, expects)
    if (hasher !== null) {
      hasher.update(JSON.stringify(result.envelopes, bigintAsString))
      hasher.update(JSON.stringify(result.events, bigintAsString))
      hasher.update(root)
    }
    for (const r of result.envelopes) if (r.reason !== null) rejects.set(r.reason.code, (rejects.get(r.reason.code) ?? 0) + 1)
    for (const e of result.events) {
      if (e.sub_kind === 'Filled') fills++
      else if (e.sub_kind === 'TriggerActivated') fired++
      else if (e.sub_kind === 'BatchItemRejected') itemRejects.set(e.reason, (itemRejects.get(e.reason) ?? 0) + 1)
    }
    if (b >= WARMUP_BLOCKS) {
      execMs += t1 - t0
      gcMs += blockGcMs
      commitMs += t2 - tc
      execCpuMs += c1 - c0
      commitCpuMs += c2 - cc
      ops += blockOps
      envelopeCount += envelopes.length
    }
  }
  const rootChecked = Buffer.from(root).equals(Buffer.from(fullStateRoot(state)))
  return {
    execMs,
    gcMs,
    commitMs,
    execCpuMs,
    commitCpuMs,
    ops,
    envelopes: envelopeCount,
    blocks: BLOCKS - WARMUP_BLOCKS,
    rejects,
    itemRejects,
    fills,
    fired,
    mix: flow.mix,
    rootChecked,
    digest: hasher === null ? null : hasher.digest('hex').slice(0, 16),
  }
}

const rate = (ops: number, ms: number): string => {
  const r = ops / (ms / 1000)
  return r >= 1e6 ? `${(r / 1e6).toFixed(2)}M` : `${(r / 1e6).toFixed(3)}M`
}
const usPerOp = (ms: number, ops: number): string => `${((ms * 1000) / ops).toFixed(2)} us/op`
const fmtCounts = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')
/** One line per figure: execution alone, and with the root committed every block (wall clock; CPU time in brackets). */
const figure = (name: string, r: Timing, note: string): string =>
  `engine (${name}): ${rate(r.ops, r.execMs)} ops/s execution (${usPerOp(r.execMs, r.ops)}; cpu ${rate(r.ops, r.execCpuMs)}); ` +
  `collecting the block's allocations adds ${usPerOp(r.gcMs, r.ops)} (${rate(r.ops, r.execMs + r.gcMs)} ops/s with it); ` +
  `${rate(r.ops, r.execMs + r.commitMs)} ops/s with the state root committed every ${BLOCK_OPS} ops (${(r.commitMs / r.blocks).toFixed(2)} ms/block; cpu ${rate(r.ops, r.execCpuMs + r.commitCpuMs)}); ${note}`

const only = flags.only
if (only === undefined || only === 'plain') {
  const ids = new Float64Array(BLOCKS * BLOCK_OPS)
  const direct = runDirect(ids)
  const viaApply = runApply(ids)
  const perBlock = (n: number) => Math.round(n / direct.blocks)
  console.log(figure('direct placeOrder/cancelOrder', direct, `${direct.blocks} blocks`))
  console.log(
    `  leaves per block: ${perBlock(direct.leaves.replaced)} objects, ${perBlock(direct.leaves.ordersIn)} orders written, ${perBlock(direct.leaves.ordersOut)} removed (orders that rest and go within one block are never hashed)`,
  )
  console.log(
    figure(
      'plain mix via applyBlock',
      viaApply,
      `raw PlaceOrder/CancelOrder (decimals packed at the edge): unpacking, nonces, auth, results; ${usPerOp(viaApply.execMs - direct.execMs, viaApply.ops)} over direct`,
    ),
  )
  console.log(`  flow (all ${BLOCKS} blocks): ${direct.fills} fills; rejects: ${fmtCounts(direct.rejects)}`)
  if (fmtCounts(direct.rejects) !== fmtCounts(viaApply.rejects) || direct.fills !== viaApply.fills) {
    console.log(`  WARNING: the applyBlock run diverged from the direct run: ${viaApply.fills} fills; ${fmtCounts(viaApply.rejects)}`)
  }
}
if (only === undefined || only === 'full') {
  // --runs N repeats the full mix from genesis (the same flow each time): on a shared machine one
  // run can be a quarter slower than the next, so the median and the best are printed too.
  const runs: number[] = []
  for (let run = 0; run < RUNS; run++) {
    edgeMs = 0
    const full = runFull()
    const edgeUs = usPerOp(edgeMs, BLOCKS * BLOCK_OPS)
    runs.push(full.ops / (full.execMs / 1000))
    console.log(
      figure(
        'full mix via applyBlock',
        full,
        `${full.envelopes} envelopes, ${full.blocks} blocks; decimals packed at the edge beforehand: ${edgeUs} (node work)`,
      ),
    )
    if (run > 0) continue
    console.log(`  mix (timed blocks, ops): ${fmtCounts(full.mix)}`)
    console.log(
      `  flow (all ${BLOCKS} blocks): ${full.fills} fills, ${full.fired} triggers fired; rejects: ${fmtCounts(full.rejects)}; batch items rejected: ${fmtCounts(full.itemRejects)}`,
    )
    if (!full.rootChecked) console.log('  WARNING: the incremental state root differs from a full recomputation')
    if (full.digest !== null) console.log(`  replay digest: ${full.digest}`)
  }
  if (RUNS > 1) {
    const sorted = [...runs].sort((a, b) => a - b)
    const m = (r: number) => `${(r / 1e6).toFixed(3)}M`
    console.log(
      `full mix execution over ${RUNS} runs: median ${m(sorted[Math.floor((RUNS - 1) / 2)]!)} ops/s, best ${m(sorted[RUNS - 1]!)}, worst ${m(sorted[0]!)}`,
    )
  }
}
