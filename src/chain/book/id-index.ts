// The order book's index from order id to its node (book.ts OrderBook.byId): a hash table over the
// safe-integer ids the engine assigns.

/** Marks a free slot in {@link IdIndex}; ids are non-negative so it never collides. */
const EMPTY_SLOT = -1
/** log2 of the initial {@link IdIndex} capacity. */
const ID_INDEX_INITIAL_BITS = 4
const ID_INDEX_INITIAL_CAPACITY = 1 << ID_INDEX_INITIAL_BITS
/** 2^32, to split a safe integer into exact 32-bit halves. */
const TWO_POW_32 = 4_294_967_296

/**
 * Hash table from non-negative safe-integer ids to values: open addressing,
 * linear probing, backward-shift deletion, load factor at most 1/2, Fibonacci
 * hashing. Its iteration order is never exposed, so it cannot leak
 * nondeterminism. It grows but never shrinks (memory stays at the peak).
 *
 * The hash is not keyed: ids should be assigned by the engine, not chosen by
 * users, or crafted collisions could make probes long.
 */
export class IdIndex<V> {
  private keys = new Float64Array(ID_INDEX_INITIAL_CAPACITY).fill(EMPTY_SLOT)
  private values: (V | undefined)[] = new Array<V | undefined>(ID_INDEX_INITIAL_CAPACITY).fill(undefined)
  private mask = ID_INDEX_INITIAL_CAPACITY - 1
  /** 32 - log2(capacity): Fibonacci hashing keeps the product's top bits. */
  private shift = 32 - ID_INDEX_INITIAL_BITS
  size = 0

  /** Home slot of `id`. Integer-only: both halves are exact (id - low is a multiple of 2^32). */
  private home(id: number): number {
    const low = id >>> 0
    const high = (id - low) / TWO_POW_32
    return Math.imul(low ^ Math.imul(high, 0x85ebca6b), 0x9e3779b1) >>> this.shift
  }

  get(id: number): V | undefined {
    const keys = this.keys
    const mask = this.mask
    let slot = this.home(id)
    // Bound: the table is at most half full, so an empty slot ends every probe run.
    for (let probes = 0; probes <= mask; probes++) {
      const key = keys[slot]!
      if (key === id) return this.values[slot]
      if (key === EMPTY_SLOT) return undefined
      slot = (slot + 1) & mask
    }
    return undefined
  }

  /** Adds `id`; returns false (and changes nothing) if it is already present. */
  add(id: number, value: V): boolean {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow()
    const keys = this.keys
    const mask = this.mask
    let slot = this.home(id)
    for (let probes = 0; probes <= mask; probes++) {
      const key = keys[slot]!
      if (key === id) return false
      if (key === EMPTY_SLOT) {
        keys[slot] = id
        this.values[slot] = value
        this.size += 1
        return true
      }
      slot = (slot + 1) & mask
    }
    throw new Error('book: id index full') // unreachable: load factor <= 1/2
  }

  /** Removes `id` if present. */
  delete(id: number): void {
    const keys = this.keys
    const values = this.values
    const mask = this.mask
    let hole = this.home(id)
    let found = false
    for (let probes = 0; probes <= mask; probes++) {
      const key = keys[hole]!
      if (key === EMPTY_SLOT) return
      if (key === id) {
        found = true
        break
      }
      hole = (hole + 1) & mask
    }
    if (!found) return
    // Backward-shift deletion: pull later entries of the probe run into the
    // hole when their home slot is not cyclically inside (hole, slot], so
    // every remaining key stays reachable from its home without tombstones.
    let slot = hole
    for (let probes = 0; probes <= mask; probes++) {
      slot = (slot + 1) & mask
      const key = keys[slot]!
      if (key === EMPTY_SLOT) break
      const home = this.home(key)
      const movable = slot > hole ? home <= hole || home > slot : home <= hole && home > slot
      if (movable) {
        keys[hole] = key
        values[hole] = values[slot]
        hole = slot
      }
    }
    keys[hole] = EMPTY_SLOT
    values[hole] = undefined
    this.size -= 1
  }

  private grow(): void {
    const oldKeys = this.keys
    const oldValues = this.values
    const capacity = oldKeys.length * 2
    this.keys = new Float64Array(capacity).fill(EMPTY_SLOT)
    this.values = new Array<V | undefined>(capacity).fill(undefined)
    this.mask = capacity - 1
    this.shift -= 1
    this.size = 0
    for (let i = 0; i < oldKeys.length; i++) {
      const key = oldKeys[i]!
      if (key !== EMPTY_SLOT) this.add(key, oldValues[i] as V)
    }
  }
}
