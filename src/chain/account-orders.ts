// An account's resting orders by id (Account.orders). Derived from the books, not a leaf.
//
// A sorted array rather than a Map: every order placed rests here and every cancel or fill that
// ends it leaves, and a Map's set and delete cost about twice an append and a short shift here
// (measured in the engine's replay, where young collections run often). Orders rest in placement
// order and ids are assigned in that order (state.nextOrderId), so an order always goes at the end
// and iterating by ascending id is iterating in the order the orders started resting, as a Map
// would. An account holds at most LIMITS.openOrdersPerAccountMax orders, which bounds every shift.
import type { Order } from './types.ts'

/** Binary-search steps that suffice for any JS array (length < 2^32). */
const MAX_SEARCH_STEPS = 33

export class AccountOrders {
  /** Ascending ids. */
  private readonly sorted: Order[] = []

  get size(): number {
    return this.sorted.length
  }

  get(id: number): Order | undefined {
    const at = this.indexOf(id)
    return at < 0 ? undefined : this.sorted[at]
  }

  has(id: number): boolean {
    return this.indexOf(id) >= 0
  }

  /** Adds an order that starts resting: the newest, since ids are assigned in placement order. */
  add(order: Order): void {
    const sorted = this.sorted
    const last = sorted[sorted.length - 1]
    // Appending keeps the array sorted only for a newer id; anything else would break the order.
    if (last !== undefined && last.id >= order.id) throw new Error(`account orders: order ${order.id} rests after order ${last.id}`)
    sorted.push(order)
  }

  /** Removes the order with this id; false when it is not here. */
  delete(id: number): boolean {
    const at = this.indexOf(id)
    if (at < 0) return false
    // A shift rather than splice, which would allocate an array of the removed element.
    const sorted = this.sorted
    const end = sorted.length - 1
    for (let i = at; i < end; i++) sorted[i] = sorted[i + 1]!
    sorted.pop()
    return true
  }

  /** The orders by ascending id (placement order). Callers that cancel collect them first:
   * removing an order while iterating would skip the one after it. */
  values(): IterableIterator<Order> {
    return this.sorted.values()
  }

  *keys(): IterableIterator<number> {
    for (const order of this.sorted) yield order.id
  }

  /** Index of the order with this id, or -1. */
  private indexOf(id: number): number {
    const at = this.lowerBound(id)
    const found = this.sorted[at]
    return found !== undefined && found.id === id ? at : -1
  }

  /** Index of the first order whose id is >= id. */
  private lowerBound(id: number): number {
    const sorted = this.sorted
    let lo = 0
    let hi = sorted.length
    // Each step halves [lo, hi), so MAX_SEARCH_STEPS is never the binding limit.
    for (let step = 0; lo < hi && step < MAX_SEARCH_STEPS; step++) {
      const mid = (lo + hi) >>> 1
      if (sorted[mid]!.id < id) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
