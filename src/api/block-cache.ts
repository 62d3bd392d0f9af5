// A cache of read results valid for one block height. Chain state changes only when a block is
// applied, so a result computed at height h stays exact until the height moves; the whole cache is
// dropped then. Bounded in entries: past the bound nothing more is cached until the next block.

/** Entries kept at most per height. */
export const BLOCK_CACHE_ENTRIES_MAX = 10_000

export class BlockCache<V> {
  private height = -1
  private readonly entries = new Map<string, V>()

  constructor(private readonly maxEntries: number) {}

  get(key: string, height: number): V | undefined {
    if (height !== this.height) return undefined
    return this.entries.get(key)
  }

  set(key: string, height: number, value: V): void {
    if (height !== this.height) {
      this.entries.clear()
      this.height = height
    }
    if (this.entries.size < this.maxEntries) this.entries.set(key, value)
  }
}
