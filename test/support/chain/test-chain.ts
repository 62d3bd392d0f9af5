// Helpers for the state machine's tests: a dev genesis state, a chain driver that
// wraps actions in envelopes (nonces per signer, tx hashes, heights), action builders, a table
// runner for scenario tests, and the invariants every reachable state must satisfy.
// Test-only: nothing in the node imports this module.
import { expect } from 'bun:test'
import type { RejectReason } from '../../../src/chain/core/reasons.ts'
import {
  applyBlock,
  type BlockResult,
  type ChainEvent,
  type ChainState,
  createGenesisState,
  type EnvelopeInput,
  type EnvelopeResult,
  eventEnvelopeIndexes,
  type RoleName,
  type Side,
  type Tif,
} from '../../../src/chain/index.ts'
import { canAfford, crossTradingAvailable, valueAccount } from '../../../src/chain/margin/margin.ts'
import { reservedMarginOf } from '../../../src/chain/margin/reserved-margin.ts'
import { clientIdHash } from '../../../src/chain/orders/client-ids.ts'
import { mulberry32 } from '../../../src/lib/prng.ts'
import { DEV_ADDRESSES, DEV_ADMIN, devGenesis } from '../../../src/node/dev-genesis.ts'
import type { CreateMarketPayload } from '../../../src/wire/actions.ts'

/** The dev admin (Admin + Trader) and fee recipient of every dev market. */
export const ADMIN: string = DEV_ADMIN
/** Funded dev traders with 1,000,000 USD each (Trader role only). */
export const ALICE: string = DEV_ADDRESSES[1]
export const BOB: string = DEV_ADDRESSES[2]
export const CAROL: string = DEV_ADDRESSES[3]
export const DAVE: string = DEV_ADDRESSES[4]
/** Dev market ids: BTC-USD (1 price dec, 4 size dec), ETH-USD (2, 3), SOL-USD (3, 2), XAU-USD (external_peg). */
export const BTC = 1
export const ETH = 2
export const SOL = 3
export const XAU = 4
/** A fresh key that is neither an account nor an agent (until registered as one). */
export const agentAddress = (i: number): string => `0x${'a9'.repeat(19)}${i.toString(16).padStart(2, '0')}`

/** 1,000,000 USD in SCALE_6: every dev account's starting balance. */
export const DEV_BALANCE = 1_000_000_000_000n

/** The state at height 0 of the dev genesis. */
export function genesisState(): ChainState {
  return createGenesisState(devGenesis()).state
}

/** An action object as signed: one key, the action kind. */
export type Action = Record<string, unknown>

/** PlaceOrder options; the default is a plain Gtc without client order id. */
export interface PlaceOptions {
  readonly tif?: Tif
  readonly reduceOnly?: boolean
  readonly cloid?: string
}

/** A PlaceOrder action; price and qty are decimal strings as signed. */
export function place(marketId: number, side: Side, price: string, qty: string, opts: PlaceOptions = {}): Action {
  return {
    PlaceOrder: {
      market_id: marketId,
      side,
      price,
      qty,
      tif: opts.tif ?? 'Gtc',
      reduce_only: opts.reduceOnly ?? false,
      ...(opts.cloid === undefined ? {} : { client_order_id: opts.cloid }),
    },
  }
}

/** A CancelOrder by order id. */
export const cancel = (marketId: number, orderId: number): Action => ({ CancelOrder: { market_id: marketId, order_id: orderId } })

/** A CancelOrder by client order id. */
export const cancelByCloid = (marketId: number, cloid: string): Action => ({ CancelOrder: { market_id: marketId, client_order_id: cloid } })

/** A RegisterAgent; TestChain fills `nonce` with the envelope nonce as admission requires. */
export const registerAgent = (agent: string, role: RoleName, name = 'bot'): Action => ({
  RegisterAgent: { network: 'dev', agent, role, name, nonce: 0, signature_chain_id: '0x66eee' },
})

/** A CreateMarket with sensible defaults (2 price and 3 size decimals, 20x, native). */
export function createMarket(p: Partial<CreateMarketPayload> & { symbol: string }): Action {
  const payload: CreateMarketPayload = {
    price_decimals: 2,
    size_decimals: 3,
    maker_fee_bps: 2,
    taker_fee_bps: 5,
    max_leverage: 20,
    maintenance_margin_bps: 250,
    mark_price: '100',
    ...p,
  }
  return { CreateMarket: payload }
}

/** An ActivateMarket by id. */
export const activateMarket = (marketId: number): Action => ({ ActivateMarket: { market_id: marketId } })

/** What one envelope did: its status, reject reason and its own events. */
export interface TxOutcome {
  readonly status: EnvelopeResult['status']
  readonly reason: RejectReason | null
  readonly events: ChainEvent[]
}

/** Splits a block result into per-envelope outcomes. */
export function outcomes(result: BlockResult): TxOutcome[] {
  return result.envelopes.map((r) => ({
    status: r.status,
    reason: r.reason?.code ?? null,
    events: result.events.slice(r.firstEvent, r.firstEvent + r.eventCount),
  }))
}

/** The block-level events of a block (begin and end hooks), in sequence order. */
export function blockLevelEvents(result: BlockResult): ChainEvent[] {
  const envelopeOf = eventEnvelopeIndexes(result)
  return result.events.filter((_e, seq) => envelopeOf[seq] === null)
}

/** A transaction for TestChain: the nonce defaults to the signer's next one. */
export interface Tx {
  readonly by: string
  readonly action: Action
  readonly nonce?: number
}

/**
 * Drives a state through applyBlock as the producer would: consecutive heights, a clock that
 * advances one second per block, and per-signer nonces counting up from 0.
 */
export class TestChain {
  readonly state: ChainState
  private readonly nextNonce = new Map<string, number>()
  private txCount = 0

  constructor(state: ChainState = genesisState()) {
    this.state = state
  }

  /** The signer's next nonce; later calls return the following one. */
  takeNonce(signer: string): number {
    const n = this.nextNonce.get(signer) ?? 0
    this.nextNonce.set(signer, n + 1)
    return n
  }

  /** An envelope as admission would hand it to the producer. An explicit nonce moves the
   * signer's counter past it, so later default nonces stay fresh. */
  envelope(tx: Tx): EnvelopeInput {
    const nonce = tx.nonce ?? this.takeNonce(tx.by)
    if (nonce >= (this.nextNonce.get(tx.by) ?? 0)) this.nextNonce.set(tx.by, nonce + 1)
    let action = tx.action
    if (action.RegisterAgent !== undefined) action = { RegisterAgent: { ...(action.RegisterAgent as object), nonce } }
    const txHash = `0x${(++this.txCount).toString(16).padStart(64, '0')}`
    return { signer: tx.by, nonce, action, txHash }
  }

  /** Applies one block of transactions (or ready envelopes). */
  block(txs: readonly (Tx | EnvelopeInput)[]): BlockResult {
    const envelopes = txs.map((t) => ('signer' in t ? t : this.envelope(t)))
    return this.applyEnvelopes(envelopes)
  }

  /** Applies ready envelopes as the next block. */
  applyEnvelopes(envelopes: readonly EnvelopeInput[]): BlockResult {
    const height = this.state.height + 1
    return applyBlock(this.state, { height, timestampMs: this.state.timestampMs + 1_000, envelopes })
  }

  /** One action in a block of its own. */
  send(by: string, action: Action, nonce?: number): TxOutcome {
    return outcomes(this.block([nonce === undefined ? { by, action } : { by, action, nonce }]))[0]!
  }

  /** Sends an action that must be accepted and returns its events. */
  ok(by: string, action: Action): ChainEvent[] {
    const out = this.send(by, action)
    if (out.status !== 'accepted') throw new Error(`expected acceptance, got ${out.reason}: ${JSON.stringify(out.events[0])}`)
    return out.events
  }

  /** Places an order that must be accepted; returns its order id. */
  placeOk(by: string, action: Action): number {
    const accepted = this.ok(by, action).find((e) => e.sub_kind === 'OrderAccepted')
    if (accepted === undefined || accepted.sub_kind !== 'OrderAccepted') throw new Error('no OrderAccepted event')
    return accepted.order_id
  }

  balance(address: string): bigint {
    return this.state.accounts.get(address)?.balance ?? 0n
  }
}

/** An expected event: its sub_kind alone, or a sub_kind with fields it must have. */
export type ExpectedEvent = SubKind | ({ readonly sub_kind: SubKind } & Record<string, unknown>)
type SubKind = ChainEvent['sub_kind']

/** One row of a scenario table: who sends what, and the events or reject reason it must end in. */
export interface Row {
  readonly by: string
  readonly action: Action
  readonly nonce?: number
  readonly expect: readonly ExpectedEvent[] | { readonly reject: RejectReason }
}

/** Shorthand for an expected event with fields. */
export const ev = (sub_kind: SubKind, fields: Record<string, unknown> = {}): ExpectedEvent => ({ sub_kind, ...fields })

/**
 * Runs a scenario table, each row in a block of its own, and checks every row's outcome. The row
 * index is part of each comparison so a failure names the row.
 */
export function runRows(chain: TestChain, rows: readonly Row[]): TxOutcome[] {
  const results: TxOutcome[] = []
  rows.forEach((row, i) => {
    const out = chain.send(row.by, row.action, row.nonce)
    results.push(out)
    if ('reject' in row.expect) {
      expect({ row: i, status: out.status, reason: out.reason }).toEqual({ row: i, status: 'kept-reject', reason: row.expect.reject })
      return
    }
    const expected = row.expect as readonly ExpectedEvent[]
    const want = expected.map((e) => (typeof e === 'string' ? e : e.sub_kind))
    expect({ row: i, status: out.status, reason: out.reason, events: out.events.map((e) => e.sub_kind) }).toEqual({
      row: i,
      status: 'accepted',
      reason: null,
      events: want,
    })
    expected.forEach((e, j) => {
      if (typeof e !== 'string') expect({ row: i, event: j, ...out.events[j] }).toMatchObject({ row: i, event: j, ...e })
    })
  })
  return results
}

/** Sum over accounts of balance minus the cost basis of its positions: every trade conserves it. */
export function conservedSum(state: ChainState): bigint {
  let sum = 0n
  for (const a of state.accounts.values()) {
    sum += a.balance
    for (const p of a.positions.values()) sum -= p.costBasis
  }
  return sum
}

/**
 * Checks the invariants every reachable state satisfies and throws with a description of the
 * first violation: books never crossed, resting orders and account indexes agree, reserved
 * margin equals the margin the account's orders hold (and the fast trading-available figure the
 * full valuation's), open interest is the sum of long sizes.
 */
export function checkInvariants(state: ChainState): void {
  function fail(what: string): never {
    throw new Error(`invariant broken at height ${state.height}: ${what}`)
  }
  let resting = 0
  for (const [marketId, book] of state.books) {
    const bid = book.bestBid()
    const ask = book.bestAsk()
    if (bid !== undefined && ask !== undefined && bid >= ask) fail(`market ${marketId} crossed: bid ${bid} >= ask ${ask}`)
    for (const side of ['Bid', 'Ask'] as const) {
      for (const o of book.ordersOf(side, Number.MAX_SAFE_INTEGER)) {
        resting++
        const owner = state.accounts.get(o.owner)
        if (owner === undefined) fail(`order ${o.id} owner ${o.owner} does not exist`)
        if (owner.orders.get(o.id) !== o) fail(`order ${o.id} is missing from ${o.owner}'s orders`)
        if (o.marketId !== marketId || o.side !== side || o.remainingLots <= 0) fail(`order ${o.id} is misfiled`)
        if (o.marginLots > o.remainingLots || o.marginHeld < 0n) fail(`order ${o.id} holds margin for more than it has`)
        const units = o.marginHeld <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(o.marginHeld) : NaN
        if (units !== o.marginHeldUnits && !(Number.isNaN(units) && Number.isNaN(o.marginHeldUnits))) {
          fail(`order ${o.id} holds ${o.marginHeld} but its units say ${o.marginHeldUnits}`)
        }
        if (o.clientOrderId !== undefined && owner.ordersByClientId.get(`${marketId}:${o.clientOrderId}`) !== o.id) {
          fail(`order ${o.id} client id ${o.clientOrderId} is not indexed`)
        }
        if (o.clientIdHash !== (o.clientOrderId === undefined ? 0 : clientIdHash(marketId, o.clientOrderId))) {
          fail(`order ${o.id} carries client id hash ${o.clientIdHash}, not its client id's`)
        }
      }
    }
  }
  let indexed = 0
  const longs = new Map<number, number>()
  for (const a of state.accounts.values()) {
    let held = 0n
    for (const o of a.orders.values()) {
      indexed++
      if (state.books.get(o.marketId)?.get(o.id) !== o) fail(`order ${o.id} of ${a.address} is not on the book`)
      held += o.marginHeld
    }
    if (held !== reservedMarginOf(a)) fail(`${a.address} reserves ${reservedMarginOf(a)} but its orders hold ${held}`)
    const available = valueAccount(state, a).crossTradingAvailable
    if (crossTradingAvailable(state, a) !== available) fail(`${a.address} fast trading-available differs`)
    for (const cost of [0n, available - 1n, available, available + 1n]) {
      if (canAfford(state, a, cost) !== available >= cost) fail(`${a.address} canAfford(${cost}) differs`)
    }
    for (const [cloidKey, id] of a.ordersByClientId) if (!a.orders.has(id)) fail(`${a.address} client id ${cloidKey} names a closed order`)
    for (const [mid, p] of a.positions) {
      if (p.sizeLots === 0) fail(`${a.address} keeps a flat position in ${mid}`)
      if (Math.sign(p.sizeLots) !== (p.costBasis > 0n ? 1 : p.costBasis < 0n ? -1 : 0))
        fail(`${a.address} position ${mid} basis sign differs from its size`)
      if (p.sizeLots > 0) longs.set(mid, (longs.get(mid) ?? 0) + p.sizeLots)
    }
  }
  if (indexed !== resting) fail(`${indexed} orders indexed by accounts but ${resting} on books`)
  for (const [mid, m] of state.markets) {
    if (m.openInterestLots !== (longs.get(mid) ?? 0))
      fail(`market ${mid} open interest ${m.openInterestLots} != long sizes ${longs.get(mid) ?? 0}`)
  }
}

/** A seeded PRNG (mulberry32, integer only), so random tests replay exactly. */
export class Rng {
  private readonly next: () => number

  constructor(seed: number) {
    this.next = mulberry32(seed)
  }

  /** A uniform 32-bit unsigned integer. */
  u32(): number {
    return this.next()
  }

  /** An integer in [0, n) (n <= 2^32; the modulo bias is irrelevant here). */
  int(n: number): number {
    return this.u32() % n
  }

  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1)
  }

  /** True with probability percent / 100. */
  chance(percent: number): boolean {
    return this.int(100) < percent
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!
  }
}
