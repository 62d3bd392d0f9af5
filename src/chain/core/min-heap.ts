// A binary min-heap with a total order, for the chain's time queues (order expiry, the dead man's
// switch). Entries are never removed from the middle: a queue keeps stale entries (an order that
// left the book, a deadline that was replaced) and its owner skips them when they reach the top
// ("lazy deletion"). compactIfStale() drops them in one linear pass once they could make up half
// the heap, so the heap stays within about twice its live size, at amortized O(1) per push.
//
// Deterministic: the order is total (ties broken by the caller's compare, e.g. by id), so pops come
// out in the same order on every machine whatever the push history's interleaving.

/** Returns < 0 when a comes before b, > 0 when after; never 0 for two distinct entries. */
export type Compare<T> = (a: T, b: T) => number

/** Levels a binary heap of any JS array can have (length < 2^32): the bound of a sift. */
const HEAP_DEPTH_MAX = 33

/** Below this size a heap is never compacted: a small heap of stale entries costs nothing. */
const COMPACT_SIZE_MIN = 1_024

export class MinHeap<T> {
  private readonly items: T[] = []
  private readonly compare: Compare<T>
  /** Size at which the next push compacts; doubles the live size after each compaction. */
  private compactAt = COMPACT_SIZE_MIN

  constructor(compare: Compare<T>) {
    this.compare = compare
  }

  /** Entries held, stale ones included. */
  get size(): number {
    return this.items.length
  }

  /** The first entry, or undefined when empty. */
  peek(): T | undefined {
    return this.items[0]
  }

  /** Adds an entry. O(log n). */
  push(item: T): void {
    const items = this.items
    items.push(item)
    this.siftUp(items.length - 1)
  }

  /** Removes and returns the first entry. O(log n). */
  pop(): T | undefined {
    const items = this.items
    const top = items[0]
    const last = items.pop()
    if (items.length > 0 && last !== undefined) {
      items[0] = last
      this.siftDown(0)
    }
    return top
  }

  /** Whether the heap has grown to its compaction size (compactIfStale would compact). */
  compactionDue(): boolean {
    return this.items.length >= this.compactAt
  }

  /**
   * When the heap has grown to its compaction size, keeps only the entries `live` accepts and
   * rebuilds the heap (O(n)); the next compaction waits until the heap doubles its live size.
   */
  compactIfStale(live: (item: T) => boolean): void {
    if (!this.compactionDue()) return
    const items = this.items
    let kept = 0
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!
      if (live(item)) items[kept++] = item
    }
    items.length = kept
    // Floyd's heap construction: sift down every inner node, last first.
    for (let i = (kept >>> 1) - 1; i >= 0; i--) this.siftDown(i)
    this.compactAt = Math.max(COMPACT_SIZE_MIN, 2 * kept)
  }

  /** Every entry in heap-array order (tests and audits; not sorted). */
  entries(): readonly T[] {
    return this.items
  }

  private siftUp(at: number): void {
    const items = this.items
    const item = items[at]!
    let i = at
    // Each step halves the index, so HEAP_DEPTH_MAX is never the binding limit.
    for (let step = 0; i > 0 && step < HEAP_DEPTH_MAX; step++) {
      const parent = (i - 1) >>> 1
      const p = items[parent]!
      if (this.compare(item, p) >= 0) break
      items[i] = p
      i = parent
    }
    items[i] = item
  }

  private siftDown(at: number): void {
    const items = this.items
    const n = items.length
    const item = items[at]!
    let i = at
    // Each step doubles the index, so HEAP_DEPTH_MAX is never the binding limit.
    for (let step = 0; step < HEAP_DEPTH_MAX; step++) {
      const left = 2 * i + 1
      if (left >= n) break
      const right = left + 1
      const child = right < n && this.compare(items[right]!, items[left]!) < 0 ? right : left
      const c = items[child]!
      if (this.compare(c, item) >= 0) break
      items[i] = c
      i = child
    }
    items[i] = item
  }
}
