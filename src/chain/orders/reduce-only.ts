// Reduce-only orders never open or flip a position (docs/orders.md#reduce-only-orders). Placement
// clamps a new order to the closable size; this module keeps resting ones honest afterwards, with
// one invariant:
//
//   for every account and market, no resting reduce-only order is on the side that would open (or
//   add to) the position, and those on the closing side add up to at most the position's size.
//
// It is kept by three means:
// 1. placement rests a reduce-only remainder only within the closable size that the account's other
//    resting reduce-only orders on that side leave free (place-order.ts);
// 2. whenever a position shrinks, closes or flips, clampReduceOnlySide() cancels the account's
//    reduce-only orders on the now-opening side and shrinks the newest ones on the closing side
//    until they fit (after every match, for the taker and for each maker);
// 3. within one match, reduceOnlyCapFor() caps each reduce-only maker at what its owner can still
//    close at that point of the walk, since the owner's plain orders earlier in the walk may have
//    closed the position already. A maker the cap holds back leaves its owner nothing to close on
//    that side, so the clamp after the match removes it before any taker remainder rests.
// All of it is skipped for accounts and book sides without resting reduce-only orders.
import type { FillCap } from '../book/book.ts'
import type { EventSink } from '../core/events.ts'
import type { Account, ChainState, Order, Side } from '../core/types.ts'
import { markLeaf, markOrderDirty } from '../state/state-root.ts'
import { reduceOnlyKey, reduceOnlyOrdersOf } from './order-indexes.ts'
import { cancelRestingOrder, resizeOrderMargin } from './order-ops.ts'

/** Lots an order on `side` can close of a position of signed `sizeLots` (0 when it would open). */
export function closableLots(sizeLots: number, side: Side): number {
  if (side === 'Ask') return sizeLots > 0 ? sizeLots : 0
  return sizeLots < 0 ? -sizeLots : 0
}

/** Remaining lots of the owner's resting reduce-only orders on one side of a market, leaving out `except`. */
export function restingReduceOnlyLots(state: ChainState, marketId: number, side: Side, owner: string, except: Order | undefined): number {
  const list = reduceOnlyOrdersOf(state, marketId, side, owner)
  if (list === undefined) return 0
  let total = 0
  // Bounded by the owner's open orders (LIMITS.openOrdersPerAccountMax).
  for (let i = 0; i < list.length; i++) if (list[i] !== except) total += list[i]!.remainingLots
  return total
}

/**
 * Restores the invariant for one side of a market after the account's position there changed:
 * the side's reduce-only orders are cut down to the closable size, newest first (cancelled with
 * reason ReduceOnlyClamped when nothing is left, else shrunk in place with an OrderResting that
 * carries the new quantity). The other side never needs it: a position change in one direction
 * only adds to what the other side may close.
 */
export function clampReduceOnlySide(state: ChainState, account: Account, marketId: number, side: Side, events: EventSink): void {
  const list = reduceOnlyOrdersOf(state, marketId, side, account.address)
  if (list === undefined) return
  const closable = closableLots(account.positions.get(marketId)?.sizeLots ?? 0, side)
  let total = 0
  for (let i = 0; i < list.length; i++) total += list[i]!.remainingLots
  let excess = total - closable
  if (excess <= 0) return
  const market = state.markets.get(marketId)!
  const book = state.books.get(marketId)!
  // Newest first. Cancelling removes list[i] from the list; the entries below i stay in place.
  for (let i = list.length - 1; i >= 0 && excess > 0; i--) {
    const order = list[i]!
    const cut = Math.min(excess, order.remainingLots)
    excess -= cut
    if (cut === order.remainingLots) {
      cancelRestingOrder(state, account, order, 'ReduceOnlyClamped', events)
      continue
    }
    book.setRemaining(order.id, order.remainingLots - cut)
    order.origLots -= cut
    resizeOrderMargin(market, account, order)
    markOrderDirty(state, order)
    markLeaf(state, account)
    events.push({
      kind: 'Exec',
      sub_kind: 'OrderResting',
      market_id: marketId,
      account: account.address,
      order_id: order.id,
      side: order.side,
      price_ticks: order.priceTicks,
      qty_lots: order.origLots,
      remaining_lots: order.remainingLots,
      tif: order.tif,
      reduce_only: true,
      client_order_id: order.clientOrderId,
    })
  }
}

/**
 * Restores the invariant on both sides of a market for an account whose position there changed by
 * any means (liquidation, delisting settlement, transfers of positions): the entry point for other
 * areas. Free for accounts without resting reduce-only orders.
 */
export function clampReduceOnlyOrders(state: ChainState, account: Account, marketId: number, events: EventSink): void {
  if (account.reduceOnlyCount === 0) return
  clampReduceOnlySide(state, account, marketId, 'Bid', events)
  clampReduceOnlySide(state, account, marketId, 'Ask', events)
}

/** A match's reduce-only cap and the maker owners it followed (in walk order), to clamp after the match. */
export interface ReduceOnlyCap {
  readonly cap: FillCap<Order>
  /** Owners with reduce-only orders on the maker side that the walk reached, and their running size. */
  readonly owners: Map<string, number>
}

/**
 * The per-maker cap for a match against `makerSide` of a market, or undefined when no resting
 * reduce-only order is on that side (the plain case: nothing to cap, nothing allocated). The cap
 * follows each such owner's position through the walk: plain orders fill in full and move it, a
 * reduce-only order fills at most what is still closable.
 */
export function reduceOnlyCapFor(state: ChainState, marketId: number, makerSide: Side): ReduceOnlyCap | undefined {
  const holders = state.orderIndexes.reduceOnly.get(reduceOnlyKey(marketId, makerSide))
  if (holders === undefined) return undefined
  const owners = new Map<string, number>()
  const cap = (maker: Order, lots: number): number => {
    if (!holders.has(maker.owner)) return lots
    const size = owners.get(maker.owner) ?? state.accounts.get(maker.owner)?.positions.get(marketId)?.sizeLots ?? 0
    const allowed = maker.reduceOnly ? Math.min(lots, closableLots(size, makerSide)) : lots
    owners.set(maker.owner, makerSide === 'Bid' ? size + allowed : size - allowed)
    return allowed
  }
  return { cap, owners }
}

/** After a match's fills: clamps the reduce-only orders of every maker owner the cap followed. */
export function clampMakersAfterMatch(state: ChainState, roCap: ReduceOnlyCap, marketId: number, makerSide: Side, events: EventSink): void {
  // Bounded by the match's fills (LIMITS.fillsPerOrderMax): one entry per distinct maker owner.
  for (const owner of roCap.owners.keys()) {
    const account = state.accounts.get(owner)
    if (account !== undefined) clampReduceOnlySide(state, account, marketId, makerSide, events)
  }
}
