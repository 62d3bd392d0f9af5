// The types of the order area: the order itself, a PlaceOrder decoded into ticks and lots, where
// an order comes from (PlaceContext) and what placing it gives, and the order indexes' shape. Apart
// from the code that uses them, and importing nothing of it, so that the data model (types.ts), the
// action context and the markets' external peg can name them without importing placeOrder.
import type { BookOrder, Side } from '../book/book.ts'
import type { MinHeap } from '../core/min-heap.ts'
import type { Rejection } from '../core/reasons.ts'

export type Tif = 'Gtc' | 'Ioc' | 'Fok' | 'PostOnly'

/** A resting or in-flight order. The book only reads id/owner/side/priceTicks/remainingLots. */
export interface Order extends BookOrder {
  readonly marketId: number
  readonly tif: Tif
  readonly reduceOnly: boolean
  readonly clientOrderId: string | undefined
  /**
   * Derived (not in the root): clientIdHash(marketId, clientOrderId), 0 without a client id. Taken
   * while the id's string is fresh at placement, so that the order leaves the client-id index
   * without hashing that string again (by then a cold cell and a cold character buffer; no figure
   * logged, though perf put half of the index's delete on that read).
   */
  readonly clientIdHash: number
  /** The order's quantity: as placed, lowered by an amend down or a reduce-only clamp. */
  origLots: number
  /** Block time after which the order expires (removed at the first block past it), or null. */
  readonly expiresAtMs: number | null
  /** Lots of the remainder that open exposure and so hold margin (the rest reduces a position). */
  marginLots: number
  /** Margin reserved for marginLots at the order's price and leverage, SCALE_6. */
  marginHeld: bigint
  /**
   * Derived (not in the root): marginHeld as an exact number, NaN when it is not a safe integer.
   * The reserved margin takes it in and out without reading the bigint, a cell elsewhere in memory
   * (cold by the time an old order is cancelled) whose every use is a runtime call.
   * Measured: engine bench, alternated, median 0.919 -> 0.983M ops/s.
   */
  marginHeldUnits: number
  readonly leverage: number
  readonly placedHeight: number
  /** The envelope that placed it (a trigger's own envelope when promoted from one), for Filled. */
  readonly sourceTxHash: string | null
  /** The trigger order it was promoted from, or null. */
  readonly sourceTriggerId: number | null
  /** Root bookkeeping (state-root.ts): the ChainState.rootSeq of the block that last marked it
   * dirty. Its leaf is found by its id (a numbered leaf of the state hash), so it keeps no key. */
  dirtyIn: number
}

/** A PlaceOrder with its decimals turned into ticks and lots. */
export interface DecodedOrder {
  readonly marketId: number
  readonly side: Side
  readonly priceTicks: number
  readonly qtyLots: number
  readonly tif: Tif
  readonly reduceOnly: boolean
  readonly clientOrderId: string | undefined
  /** Block time after which a resting remainder expires; absent = never. */
  readonly expiresAtMs?: number | undefined
}

export type Decoded<T> = { readonly ok: true; readonly value: T } | Rejection

/** Where the order comes from: the block being applied and the envelope (or trigger) behind it. */
export interface PlaceContext {
  readonly height: number
  readonly timestampMs: number
  /** The envelope that placed the order (for a trigger: the envelope that placed the trigger). */
  readonly txHash: string | null
  /** The trigger order this order was promoted from, or null. */
  readonly sourceTriggerId: number | null
}

/** The new order's id, or why the order was rejected (nothing changed then): placeOrder's result,
 * a number rather than an object, as an order placed per envelope needs none. */
export type PlaceOutcome = number | Rejection

/** A dead man's switch deadline in the queue; stale once the account's deadline differs. */
export interface DmsEntry {
  readonly deadlineMs: number
  readonly address: string
}

/** The derived indexes of the order area, kept by order-indexes.ts. */
export interface OrderIndexes {
  /** Resting orders with an expiry, first (expiresAtMs, id) first; stale entries have left the book. */
  readonly expiries: MinHeap<Order>
  /** Dead man's switch deadlines, first (deadlineMs, address) first. */
  readonly deadlines: MinHeap<DmsEntry>
  /**
   * Resting reduce-only orders by reduceOnlyKey(market, side), then by owner, oldest first. Only
   * owners with at least one such order have a list, so an empty map means no reduce-only maker.
   */
  readonly reduceOnly: Map<number, Map<string, Order[]>>
}
