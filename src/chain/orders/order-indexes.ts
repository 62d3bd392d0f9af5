// Indexes of the order area over state that lives elsewhere: the time queues of order expiry and of
// the dead man's switch, and the resting reduce-only orders by market and side. They are derived
// from the orders and accounts (whose leaves carry expires_at_ms, dms_deadline_ms and reduce_only),
// so they are not leaves of the state root themselves: rebuilding them from the orders and accounts
// gives the same queues, since every queue is a total order.
import { BATCH_LIMITS } from '../../wire/actions/orders.ts'
import { MinHeap } from '../core/min-heap.ts'
import type { Account, ChainState, Order, Side } from '../core/types.ts'
import type { DmsEntry, OrderIndexes } from './order-types.ts'

/** Limits of the order area (every loop over a batch, a queue or an account's orders is bounded). */
export const ORDER_LIMITS = {
  ...BATCH_LIMITS,
  /** Resting orders the expiry hook removes per block; the rest expire in the next blocks. */
  expiriesPerBlockMax: 1_000,
  /** Queue entries the expiry hook looks at per block, stale ones (orders gone) included. */
  expiryPopsPerBlockMax: 4_000,
  /** Accounts whose dead man's switch fires per block; the rest fire in the next blocks. */
  dmsFiresPerBlockMax: 16,
  /** Deadline entries the switch hook looks at per block, stale ones (replaced deadlines) included. */
  dmsPopsPerBlockMax: 256,
  /** How far ahead of block time a ScheduleCancel deadline must be, at least and at most. */
  dmsLeadMsMin: 5_000,
  dmsLeadMsMax: 86_400_000,
} as const

const byExpiry = (a: Order, b: Order): number => a.expiresAtMs! - b.expiresAtMs! || a.id - b.id
const byDeadline = (a: DmsEntry, b: DmsEntry): number =>
  a.deadlineMs - b.deadlineMs || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0)

/** The queues' orders, for the snapshot codec (state-codec.ts): a restored queue keeps its compare. */
export const ORDER_INDEX_COMPARES = { byExpiry, byDeadline } as const

/** Empty indexes, for a new state. */
export function newOrderIndexes(): OrderIndexes {
  return { expiries: new MinHeap(byExpiry), deadlines: new MinHeap(byDeadline), reduceOnly: new Map() }
}

/** The reduceOnly index key of a market's side. */
export const reduceOnlyKey = (marketId: number, side: Side): number => marketId * 2 + (side === 'Ask' ? 1 : 0)

/** The owner's resting reduce-only orders on one side of a market, oldest first, if any. */
export function reduceOnlyOrdersOf(state: ChainState, marketId: number, side: Side, owner: string): Order[] | undefined {
  return state.orderIndexes.reduceOnly.get(reduceOnlyKey(marketId, side))?.get(owner)
}

/** Indexes an order that starts resting (called by restOrder). */
export function indexRestingOrder(state: ChainState, account: Account, order: Order): void {
  if (order.reduceOnly) {
    account.reduceOnlyCount++
    const key = reduceOnlyKey(order.marketId, order.side)
    const idx = state.orderIndexes.reduceOnly
    let owners = idx.get(key)
    if (owners === undefined) {
      owners = new Map()
      idx.set(key, owners)
    }
    const list = owners.get(order.owner)
    if (list === undefined) owners.set(order.owner, [order])
    else list.push(order)
  }
  if (order.expiresAtMs !== null) {
    const expiries = state.orderIndexes.expiries
    // The predicate (a closure) is built only when a compaction is due, not for every order.
    if (expiries.compactionDue()) expiries.compactIfStale((o) => state.books.get(o.marketId)?.get(o.id) === o)
    expiries.push(order)
  }
}

/** Drops an order that stops resting from the indexes (called by unrestOrder). The expiry queue
 * keeps its entry until it reaches the top or a compaction. */
export function unindexRestingOrder(state: ChainState, account: Account, order: Order): void {
  if (!order.reduceOnly) return
  account.reduceOnlyCount--
  const key = reduceOnlyKey(order.marketId, order.side)
  const owners = state.orderIndexes.reduceOnly.get(key)
  const list = owners?.get(order.owner)
  if (owners === undefined || list === undefined) return
  const at = list.indexOf(order)
  if (at >= 0) list.splice(at, 1)
  if (list.length === 0) owners.delete(order.owner)
  if (owners.size === 0) state.orderIndexes.reduceOnly.delete(key)
}
