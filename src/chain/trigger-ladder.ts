// A sorted array of items keyed by an integer, the next to act on at the END (as the book keeps its
// best level last): checking what fires or expires next is a look at the last entry, and firing
// the front is a pop. Ties on the key put the smaller id later, so among equal keys the oldest
// trigger acts first. Insert and remove are a binary search plus a splice (a memmove).

/** Binary-search steps that suffice for any JS array (length < 2^32). */
const SEARCH_STEPS_MAX = 33

export interface LadderItem {
  readonly id: number
}

export class TriggerLadder<T extends LadderItem> {
  private readonly items: T[] = []

  /** key(item) must not change while the item is in the ladder (remove, change, insert again). */
  constructor(private readonly key: (item: T) => number) {}

  get size(): number {
    return this.items.length
  }

  /** The i-th item counted from the end (0 = the next to act), or undefined. */
  fromEnd(i: number): T | undefined {
    return this.items[this.items.length - 1 - i]
  }

  /** Index of the first entry that does not sort before item: smaller keys sort first, and
   * among equal keys larger ids. */
  private lowerBound(item: T): number {
    const items = this.items
    const key = this.key(item)
    let lo = 0
    let hi = items.length
    // Each step halves [lo, hi), so SEARCH_STEPS_MAX is never the binding limit.
    for (let step = 0; lo < hi && step < SEARCH_STEPS_MAX; step++) {
      const mid = (lo + hi) >>> 1
      const other = items[mid]!
      const otherKey = this.key(other)
      if (otherKey < key || (otherKey === key && other.id > item.id)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** A copy of the items, the next to act on last. */
  toArray(): T[] {
    return this.items.slice()
  }

  insert(item: T): void {
    this.items.splice(this.lowerBound(item), 0, item)
  }

  /** Removes item if present (found by its key and id); returns whether it was there. */
  remove(item: T): boolean {
    const at = this.lowerBound(item)
    if (this.items[at] !== item) return false
    this.items.splice(at, 1)
    return true
  }
}
