// Items sorted by an integer key, the next to act on at the END (as the book keeps its best level
// last): checking what fires or expires next is a look at the last entry. Ties on the key put the
// smaller id later, so among equal keys the oldest trigger acts first.
//
// Stored as a list of sorted chunks of at most CHUNK_MAX items rather than one sorted array: a
// market's ladder holds every resting stop of its traders (up to triggersPerAccountMax each), and
// a shift in one array of 100,000 items costs tens of microseconds, where a chunk's shift and a
// binary search over chunks stay a few hundred nanoseconds (scripts/bench/trigger-ladder.ts: a
// remove + insert 1.1-4.4 us from 1,000 to 500,000 triggers, against 26 us at 100,000 and 82 us at
// 500,000 in one sorted array).

import { insertAt, removeAt } from '../../lib/array-shift.ts'

/** Binary-search steps that suffice for any JS array (length < 2^32). */
const SEARCH_STEPS_MAX = 33
/** Items per chunk at most; a full chunk splits in two halves. */
export const CHUNK_MAX = 256

export interface LadderItem {
  readonly id: number
}

export class TriggerLadder<T extends LadderItem> {
  /** Non-empty chunks, each sorted, in order: every item of a chunk sorts before the next chunk's. */
  private readonly chunks: T[][] = []
  private count = 0

  /** key(item) must not change while the item is in the ladder (remove, change, insert again). */
  constructor(private readonly key: (item: T) => number) {}

  get size(): number {
    return this.count
  }

  /** The i-th item counted from the end (0 = the next to act), or undefined. Walks back over
   * whole chunks, so it costs i / CHUNK_MAX steps; callers read the first few. */
  fromEnd(i: number): T | undefined {
    if (i < 0 || i >= this.count) return undefined
    let rest = i
    for (let c = this.chunks.length - 1; c >= 0; c--) {
      const chunk = this.chunks[c]!
      if (rest < chunk.length) return chunk[chunk.length - 1 - rest]
      rest -= chunk.length
    }
    return undefined
  }

  /** Whether other sorts before item (whose key is key): a smaller key, or the same key and a larger id. */
  private sortsBefore(other: T, item: T, key: number): boolean {
    const otherKey = this.key(other)
    return otherKey < key || (otherKey === key && other.id > item.id)
  }

  /** Index of the chunk item belongs in: the first whose last item does not sort before it (the
   * last chunk when item sorts after everything); -1 when there are no chunks. */
  private chunkOf(item: T, key: number): number {
    const chunks = this.chunks
    let lo = 0
    let hi = chunks.length
    // Each step halves [lo, hi), so SEARCH_STEPS_MAX is never the binding limit.
    for (let step = 0; lo < hi && step < SEARCH_STEPS_MAX; step++) {
      const mid = (lo + hi) >>> 1
      const chunk = chunks[mid]!
      if (this.sortsBefore(chunk[chunk.length - 1]!, item, key)) lo = mid + 1
      else hi = mid
    }
    return Math.min(lo, chunks.length - 1)
  }

  /** Index in chunk of the first entry that does not sort before item. */
  private lowerBound(chunk: readonly T[], item: T, key: number): number {
    let lo = 0
    let hi = chunk.length
    for (let step = 0; lo < hi && step < SEARCH_STEPS_MAX; step++) {
      const mid = (lo + hi) >>> 1
      if (this.sortsBefore(chunk[mid]!, item, key)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** A copy of the items, the next to act on last. */
  toArray(): T[] {
    return this.chunks.flat()
  }

  insert(item: T): void {
    const key = this.key(item)
    const c = this.chunkOf(item, key)
    if (c < 0) {
      this.chunks.push([item])
      this.count++
      return
    }
    const chunk = this.chunks[c]!
    insertAt(chunk, this.lowerBound(chunk, item, key), item)
    this.count++
    // A full chunk splits, so every shift moves at most CHUNK_MAX items.
    if (chunk.length > CHUNK_MAX) this.chunks.splice(c + 1, 0, chunk.splice(chunk.length >>> 1))
  }

  /** Removes item if present (found by its key and id); returns whether it was there. */
  remove(item: T): boolean {
    const key = this.key(item)
    const c = this.chunkOf(item, key)
    if (c < 0) return false
    const chunk = this.chunks[c]!
    const at = this.lowerBound(chunk, item, key)
    if (chunk[at] !== item) return false
    removeAt(chunk, at)
    this.count--
    if (chunk.length === 0) removeAt(this.chunks, c)
    return true
  }
}
