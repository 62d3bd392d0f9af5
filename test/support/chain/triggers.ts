// Test helpers of the trigger area: action builders, a row runner that also checks the block-level
// events a row's block ends with (firing happens in an end-of-block hook, outside any envelope),
// a mark mover, and the invariants of the trigger indexes. Test-only.
import { expect } from 'bun:test'
import type { RejectReason } from '../../../src/chain/core/reasons.ts'
import type { BlockResult, ChainEvent, ChainState, Side, Tif } from '../../../src/chain/index.ts'
import { clientIdHash } from '../../../src/chain/orders/client-ids.ts'
import type { TriggerDirection } from '../../../src/chain/triggers/trigger-types.ts'
import { type Action, blockLevelEvents, type ExpectedEvent, outcomes, place, type TestChain } from './test-chain.ts'

export interface TriggerOptions {
  readonly type?: 'market' | 'limit'
  readonly limit?: string
  readonly tif?: Tif
  readonly reduceOnly?: boolean
  readonly cloid?: string
  readonly expiresAtMs?: number | null
}

/** A PlaceTriggerOrder; the default is a market trigger, not reduce-only, never expiring. */
export function trig(
  marketId: number,
  side: Side,
  qty: string,
  triggerPrice: string,
  direction: TriggerDirection,
  opts: TriggerOptions = {},
): Action {
  return {
    PlaceTriggerOrder: {
      market_id: marketId,
      side,
      qty,
      trigger_price: triggerPrice,
      trigger_direction: direction,
      order_type: opts.type ?? 'market',
      ...(opts.limit === undefined ? {} : { limit_price: opts.limit }),
      ...(opts.tif === undefined ? {} : { tif: opts.tif }),
      reduce_only: opts.reduceOnly ?? false,
      ...(opts.cloid === undefined ? {} : { client_order_id: opts.cloid }),
      ...(opts.expiresAtMs === undefined ? {} : { expires_at_ms: opts.expiresAtMs }),
    },
  }
}

/** An AmendTriggerOrder with the given changes. */
export const amendTrig = (marketId: number, triggerId: number, changes: Record<string, unknown>): Action => ({
  AmendTriggerOrder: { market_id: marketId, trigger_id: triggerId, ...changes },
})

/** A CancelTriggerOrder by trigger id. */
export const cancelTrig = (marketId: number, triggerId: number): Action => ({
  CancelTriggerOrder: { market_id: marketId, trigger_id: triggerId },
})

/** A CancelTriggerOrder by client order id. */
export const cancelTrigByCloid = (marketId: number, cloid: string): Action => ({
  CancelTriggerOrder: { market_id: marketId, client_order_id: cloid },
})

export interface OcoOptions {
  readonly stopType?: 'market' | 'limit'
  readonly stopLimit?: string
  readonly stopExpiresAtMs?: number | null
  readonly reduceOnly?: boolean
  readonly parent?: number
}

/** A PlaceOcoPair: limit leg at limitPrice, stop leg at stopPrice in direction. */
export function oco(
  marketId: number,
  side: Side,
  qty: string,
  limitPrice: string,
  stopPrice: string,
  direction: TriggerDirection,
  clientPairId: number,
  opts: OcoOptions = {},
): Action {
  return {
    PlaceOcoPair: {
      market_id: marketId,
      side,
      qty,
      limit_price: limitPrice,
      stop: {
        trigger_price: stopPrice,
        trigger_direction: direction,
        order_type: opts.stopType ?? 'market',
        ...(opts.stopLimit === undefined ? {} : { limit_price: opts.stopLimit }),
        ...(opts.stopExpiresAtMs === undefined ? {} : { expires_at_ms: opts.stopExpiresAtMs }),
      },
      reduce_only: opts.reduceOnly ?? false,
      client_pair_id: clientPairId,
      ...(opts.parent === undefined ? {} : { parent_order_id: opts.parent }),
    },
  }
}

/** A CancelOcoPair by pair id. */
export const cancelOco = (marketId: number, pairId: number): Action => ({ CancelOcoPair: { market_id: marketId, pair_id: pairId } })

/** A CancelOcoPair by client pair id. */
export const cancelOcoByClientId = (marketId: number, clientPairId: number): Action => ({
  CancelOcoPair: { market_id: marketId, client_pair_id: clientPairId },
})

/** The block-level events of a block (begin and end hooks) of the kinds this area emits or causes. */
export function hookEvents(result: BlockResult): ChainEvent[] {
  return blockLevelEvents(result).filter((e) => e.kind === 'Trigger' || e.kind === 'Oco' || e.kind === 'Exec')
}

/** One row: an action in a block of its own, its events or reject reason, and the block's hook events. */
export interface TriggerRow {
  readonly by: string
  readonly action: Action
  readonly expect: readonly ExpectedEvent[] | { readonly reject: RejectReason }
  /** The block-level Trigger, Oco and Exec events of the row's block, in order (default: none). */
  readonly block?: readonly ExpectedEvent[]
}

function checkEvents(where: Record<string, unknown>, events: readonly ChainEvent[], expected: readonly ExpectedEvent[]): void {
  expect({ ...where, events: events.map((e) => e.sub_kind) }).toEqual({
    ...where,
    events: expected.map((e) => (typeof e === 'string' ? e : e.sub_kind)),
  })
  expected.forEach((e, j) => {
    if (typeof e !== 'string') expect({ ...where, event: j, ...events[j] }).toMatchObject({ ...where, event: j, ...e })
  })
}

/** Runs rows, each in a block of its own; a failure names the row (and `block` for hook events). */
export function runTriggerRows(chain: TestChain, rows: readonly TriggerRow[]): BlockResult[] {
  return rows.map((row, i) => {
    const result = chain.block([{ by: row.by, action: row.action }])
    const out = outcomes(result)[0]!
    if ('reject' in row.expect) {
      expect({ row: i, status: out.status, reason: out.reason }).toEqual({ row: i, status: 'kept-reject', reason: row.expect.reject })
    } else {
      expect({ row: i, status: out.status, reason: out.reason }).toEqual({ row: i, status: 'accepted', reason: null })
      checkEvents({ row: i }, out.events, row.expect as readonly ExpectedEvent[])
    }
    checkEvents({ row: i, block: true }, hookEvents(result), row.block ?? [])
    return result
  })
}

/**
 * Rows that trade qty at price between two traders, so the mark becomes price at the end of the
 * second row's block when the book is otherwise empty (marks.ts: the last trade), or one-sided
 * with price between that side and the previous mark, or two-sided around price (the median of
 * three). The second row's block events are `block`.
 */
export function markRows(
  marketId: number,
  price: string,
  qty: string,
  maker: string,
  taker: string,
  block: readonly ExpectedEvent[] = [],
): TriggerRow[] {
  return [
    { by: maker, action: place(marketId, 'Ask', price, qty), expect: ['OrderAccepted', 'OrderResting'] },
    {
      by: taker,
      action: place(marketId, 'Bid', price, qty, { tif: 'Ioc' }),
      expect: ['OrderAccepted', 'Filled', 'OrderDone', 'OrderDone'],
      block,
    },
  ]
}

/**
 * The trigger indexes agree with the triggers and pairs: ladders, expiry ladder, account indexes,
 * pair watches and the reduce-only count. Throws with the first violation.
 */
export function checkTriggerInvariants(state: ChainState): void {
  const ts = state.triggers
  function fail(what: string): never {
    throw new Error(`trigger invariant broken at height ${state.height}: ${what}`)
  }
  let laddered = 0
  for (const [mid, mt] of ts.markets) {
    for (const [ladder, dir] of [
      [mt.above, 'Above'],
      [mt.below, 'Below'],
    ] as const) {
      let prev: number | undefined
      for (const t of ladder.toArray()) {
        laddered++
        if (ts.triggers.get(t.id) !== t || t.marketId !== mid || t.direction !== dir)
          fail(`trigger ${t.id} misfiled in market ${mid} ${dir}`)
        // From the end (next to fire) backwards, trigger prices move away from the mark.
        const key = dir === 'Above' ? -t.triggerTicks : t.triggerTicks
        if (prev !== undefined && key < prev) fail(`ladder ${mid} ${dir} out of order at trigger ${t.id}`)
        prev = key
      }
    }
    for (const p of mt.pairs.values()) if (ts.pairs.get(p.id) !== p || p.marketId !== mid) fail(`pair ${p.id} misfiled in market ${mid}`)
  }
  if (laddered !== ts.triggers.size) fail(`${laddered} triggers in ladders, ${ts.triggers.size} active`)
  const expiring = [...ts.triggers.values()].filter((t) => t.expiresAtMs !== null).length
  if (ts.expiry.size !== expiring) fail(`expiry ladder has ${ts.expiry.size}, ${expiring} triggers expire`)
  let reduceOnly = 0
  for (const t of ts.triggers.values()) {
    if (t.reduceOnly) reduceOnly++
    const mine = ts.accounts.get(t.owner)
    if (mine?.triggers.get(t.id) !== t) fail(`trigger ${t.id} missing from ${t.owner}'s index`)
    if (t.clientOrderId !== undefined && mine.triggersByClientId.get(`${t.marketId}:${t.clientOrderId}`) !== t.id)
      fail(`trigger ${t.id} client id not indexed`)
    if (t.clientIdHash !== (t.clientOrderId === undefined ? 0 : clientIdHash(t.marketId, t.clientOrderId)))
      fail(`trigger ${t.id} carries another client id's hash`)
    if (t.pairId !== null && ts.pairs.get(t.pairId)?.stopTriggerId !== t.id)
      fail(`trigger ${t.id} names pair ${t.pairId}, which does not name it`)
  }
  if (reduceOnly !== ts.reduceOnlyCount) fail(`reduce-only count ${ts.reduceOnlyCount}, actual ${reduceOnly}`)
  for (const p of ts.pairs.values()) {
    const mine = ts.accounts.get(p.owner)
    if (mine?.pairs.get(p.id) !== p || mine.pairsByClientId.get(p.clientPairId) !== p.id)
      fail(`pair ${p.id} missing from ${p.owner}'s index`)
    const watched = p.limitOrderId ?? p.parentOrderId
    if (watched !== null && ts.pairByOrder.get(watched) !== p.id) fail(`pair ${p.id} does not watch order ${watched}`)
    if ((p.limitOrderId === null) !== (p.stopTriggerId === null)) fail(`pair ${p.id} has one leg`)
    if (p.stopTriggerId !== null && ts.triggers.get(p.stopTriggerId)?.pairId !== p.id)
      fail(`pair ${p.id} stop leg ${p.stopTriggerId} is not active`)
    // The order a pair watches is resting: an order that ends always says so with an event.
    if (watched !== null && !(state.accounts.get(p.owner)?.orders.has(watched) ?? false))
      fail(`pair ${p.id} watches order ${watched}, which is not resting`)
  }
  for (const [orderId, pairId] of ts.pairByOrder) {
    const p = ts.pairs.get(pairId)
    if (p === undefined || (p.limitOrderId ?? p.parentOrderId) !== orderId)
      fail(`order ${orderId} watched for a pair ${pairId} that does not watch it`)
  }
  let indexed = 0
  for (const [owner, mine] of ts.accounts) {
    if (mine.triggers.size === 0 && mine.pairs.size === 0) fail(`empty index kept for ${owner}`)
    indexed += mine.triggers.size
  }
  if (indexed !== ts.triggers.size) fail(`${indexed} triggers indexed by account, ${ts.triggers.size} active`)
}
