// Test helpers of the order area: builders of its actions, a block at a chosen time, and the
// invariants of its indexes (reduce-only, expiry, dead man's switch). Test-only.

import { applyBlock, type BlockResult, type ChainEvent, type ChainState, fullStateRoot, type Side } from '../../../src/chain/index.ts'
import { reduceOnlyOrdersOf } from '../../../src/chain/orders/order-indexes.ts'
import { closableLots } from '../../../src/chain/orders/reduce-only.ts'
import type { ModifyPayload } from '../../../src/wire/actions.ts'
import { type Action, type PlaceOptions, place, type TestChain } from './test-chain.ts'

/** PlaceOrder options of the order area: an expiry on top of the foundation's options. */
export interface OrderOptions extends PlaceOptions {
  readonly expiresAtMs?: number
}

/** A PlaceOrder payload (the value under the kind's key) with an optional expiry. */
export function placePayload(marketId: number, side: Side, price: string, qty: string, opts: OrderOptions = {}): Record<string, unknown> {
  const payload = place(marketId, side, price, qty, opts).PlaceOrder as Record<string, unknown>
  return opts.expiresAtMs === undefined ? payload : { ...payload, expires_at_ms: opts.expiresAtMs }
}

/** A PlaceOrder action with an optional expiry. */
export const placeX = (marketId: number, side: Side, price: string, qty: string, opts: OrderOptions = {}): Action => ({
  PlaceOrder: placePayload(marketId, side, price, qty, opts),
})

export const batchPlace = (...orders: Record<string, unknown>[]): Action => ({ BatchPlaceOrder: { orders } })
export const batchModify = (...modifies: ModifyPayload[]): Action => ({ BatchModify: { modifies } })
export const massCancel = (p: { by: 'Owner' | 'Side' | 'Ids'; market_id?: number; side?: Side; order_ids?: number[] }): Action => ({
  MassCancel: p,
})
export const scheduleCancel = (deadlineMs: number | null): Action => ({ ScheduleCancel: { deadline_ms: deadlineMs } })
export const noop = (): Action => ({ Noop: {} })

/** The block time TestChain gives the next block (it advances one second per block). */
export const nextBlockTime = (chain: TestChain): number => chain.state.timestampMs + 1_000

/** Whether an event is the order area's (other areas' block hooks, e.g. quote staleness, are not). */
export const isOrderEvent = (e: ChainEvent): boolean =>
  e.kind === 'Exec' ||
  e.sub_kind === 'DeadMansSwitchFired' ||
  e.sub_kind === 'CancelScheduled' ||
  e.sub_kind === 'MassCancelDone' ||
  e.sub_kind === 'BatchItemRejected'

/** Applies an empty block at a chosen time and returns its (block-level) order events. */
export function emptyBlockAt(chain: TestChain, timestampMs: number): { result: BlockResult; events: ChainEvent[] } {
  const result = applyBlock(chain.state, { height: chain.state.height + 1, timestampMs, envelopes: [] })
  return { result, events: result.events.filter(isOrderEvent) }
}

/** The order ids of a list of events' OrderAccepted, in order. */
export const acceptedIds = (events: readonly ChainEvent[]): number[] =>
  events.flatMap((e) => (e.sub_kind === 'OrderAccepted' ? [e.order_id] : []))

/**
 * The order area's invariants, beyond checkInvariants: the reduce-only invariant (no resting
 * reduce-only order on the opening side; those on the closing side add up to at most the position
 * size), the reduce-only index and counts match the books, and every resting order with an expiry
 * is in the expiry queue with a time not yet passed, and every account's deadline is queued.
 */
export function checkOrderInvariants(state: ChainState): void {
  const fail = (what: string): never => {
    throw new Error(`order invariant broken at height ${state.height}: ${what}`)
  }
  const queued = new Set(state.orderIndexes.expiries.entries())
  const deadlines = new Set(state.orderIndexes.deadlines.entries().map((e) => `${e.address}:${e.deadlineMs}`))
  let indexed = 0
  for (const owners of state.orderIndexes.reduceOnly.values()) for (const list of owners.values()) indexed += list.length
  let reduceOnly = 0
  for (const a of state.accounts.values()) {
    let count = 0
    const lotsBySide = new Map<string, number>()
    for (const o of a.orders.values()) {
      if (o.expiresAtMs !== null) {
        if (!queued.has(o)) fail(`order ${o.id} with an expiry is not queued`)
        if (o.expiresAtMs < state.timestampMs) fail(`order ${o.id} expired at ${o.expiresAtMs} but rests at ${state.timestampMs}`)
      }
      if (o.origLots < o.remainingLots) fail(`order ${o.id} has more remaining than its quantity`)
      if (!o.reduceOnly) continue
      count++
      if (o.marginHeld !== 0n) fail(`reduce-only order ${o.id} holds margin`)
      const list = reduceOnlyOrdersOf(state, o.marketId, o.side, a.address)
      if (list === undefined || !list.includes(o)) fail(`reduce-only order ${o.id} is not indexed`)
      const key = `${o.marketId}:${o.side}`
      lotsBySide.set(key, (lotsBySide.get(key) ?? 0) + o.remainingLots)
    }
    if (count !== a.reduceOnlyCount) fail(`${a.address} counts ${a.reduceOnlyCount} reduce-only orders but rests ${count}`)
    reduceOnly += count
    for (const [key, lots] of lotsBySide) {
      const [mid, side] = key.split(':') as [string, Side]
      const closable = closableLots(a.positions.get(Number(mid))?.sizeLots ?? 0, side)
      if (lots > closable) fail(`${a.address} rests ${lots} reduce-only ${side} lots in market ${mid} but can close ${closable}`)
    }
    if (a.dmsDeadlineMs !== null) {
      if (!deadlines.has(`${a.address}:${a.dmsDeadlineMs}`)) fail(`${a.address} deadline ${a.dmsDeadlineMs} is not queued`)
      if (a.dmsDeadlineMs < state.timestampMs) fail(`${a.address} deadline ${a.dmsDeadlineMs} passed at ${state.timestampMs}`)
    }
  }
  if (indexed !== reduceOnly) fail(`${indexed} reduce-only orders indexed but ${reduceOnly} resting`)
}

/** The incremental root of the last block equals the from-scratch root. */
export function rootMatches(state: ChainState, result: BlockResult): boolean {
  return Buffer.from(result.stateRoot).equals(Buffer.from(fullStateRoot(state)))
}
