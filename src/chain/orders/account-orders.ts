// An account's resting orders by id (Account.orders). Derived from the books, not a leaf.
//
// Every order placed rests here and every cancel or fill that ends it leaves, so both sit on the
// hottest paths. Orders rest in placement order and ids are assigned in that order
// (state.nextOrderId), so a new order always goes at the end and the slots stay sorted by id;
// iterating them is iterating in the order the orders started resting, as a Map would.
// - The ids live in a typed array beside the orders, so the binary search of a lookup reads
//   adjacent numbers instead of following a pointer to an order object at every step (no figure logged).
// - An order that leaves empties its slot (a hole, whose id stays for the search) instead of
//   shifting every later slot down. add() squeezes the holes out once they outnumber the orders,
//   so the slots stay within about twice the orders (amortized O(1) per order). An account holds
//   at most LIMITS.openOrdersPerAccountMax orders, which bounds every pass.
// - A cancel looks its order up (get) and then removes it (delete): the slot the last search found
//   is tried first, so the second costs one compare instead of a binary search with a mispredicted
//   branch at nearly every step (no figure logged).
// Callers that cancel collect the orders first: values() squeezes the holes out and iterates the
// slots themselves (an array iterator: a generator that skipped holes made MassCancel about 40%
// slower per envelope), so a cancel in the middle of it would leave a hole it then meets.
import type { Order } from './order-types.ts'

/** Binary-search steps that suffice for any JS array (length < 2^32). */
const MAX_SEARCH_STEPS = 33
/** Slots of the first id array; it doubles when full. */
const INITIAL_SLOTS = 16

export class AccountOrders {
  /** Per slot, ascending: the id of the order that rests (or rested, for a hole) there. */
  private ids = new Float64Array(INITIAL_SLOTS)
  /** Per slot: the resting order, or null for a hole. */
  private readonly slots: (Order | null)[] = []
  /** Orders resting (slots that are not holes). */
  private count = 0
  /** The slot the last search found. Ids are unique and ascending, so wherever compact() moved the
   * orders, ids[lastFound] === id still names the slot of id: it needs no invalidation. */
  private lastFound = 0

  get size(): number {
    return this.count
  }

  get(id: number): Order | undefined {
    const at = this.indexOf(id)
    return at < 0 ? undefined : this.slots[at]!
  }

  has(id: number): boolean {
    return this.indexOf(id) >= 0
  }

  /** Adds an order that starts resting: the newest, since ids are assigned in placement order. */
  add(order: Order): void {
    let used = this.slots.length
    // Appending keeps the slots sorted only for a newer id; anything else would break the order.
    if (used > 0 && this.ids[used - 1]! >= order.id)
      throw new Error(`account orders: order ${order.id} rests after order ${this.ids[used - 1]}`)
    if (used - this.count > this.count) used = this.compact()
    if (used === this.ids.length) {
      const grown = new Float64Array(2 * used)
      grown.set(this.ids)
      this.ids = grown
    }
    this.ids[used] = order.id
    this.slots.push(order)
    this.count++
  }

  /** Removes the order with this id; false when it is not here. */
  delete(id: number): boolean {
    const at = this.indexOf(id)
    if (at < 0) return false
    this.slots[at] = null
    this.count--
    return true
  }

  /** The orders by ascending id (placement order). Callers that cancel collect them first. */
  values(): IterableIterator<Order> {
    if (this.slots.length !== this.count) this.compact()
    // No holes are left: every slot holds an order.
    return (this.slots as Order[]).values()
  }

  *keys(): IterableIterator<number> {
    for (const order of this.values()) yield order.id
  }

  /** Moves the orders down over the holes, keeping their order; returns the slots now used. */
  private compact(): number {
    const { ids, slots } = this
    let kept = 0
    for (let i = 0; i < slots.length; i++) {
      const order = slots[i]!
      if (order === null) continue
      slots[kept] = order
      ids[kept] = ids[i]!
      kept++
    }
    slots.length = kept
    return kept
  }

  /** Slot of the resting order with this id, or -1 (not here, or a hole). */
  private indexOf(id: number): number {
    const ids = this.ids
    const used = this.slots.length
    const last = this.lastFound
    if (last < used && ids[last] === id) return this.slots[last] !== null ? last : -1
    let lo = 0
    let hi = used
    // Each step halves [lo, hi), so MAX_SEARCH_STEPS is never the binding limit.
    for (let step = 0; lo < hi && step < MAX_SEARCH_STEPS; step++) {
      const mid = (lo + hi) >>> 1
      if (ids[mid]! < id) lo = mid + 1
      else hi = mid
    }
    if (lo >= used || ids[lo] !== id) return -1
    this.lastFound = lo
    return this.slots[lo] !== null ? lo : -1
  }
}
