// The leaf digests of the state hash's numbered leaves (the orders', by order id): a million
// resting orders are a million leaves, and as a Map from key string to a 32-byte Uint8Array each
// one cost a key string, a map entry and an array object (about 250 bytes with the order's own
// copy of its key). Here a digest is 32 bytes in one slab and the id finds it through an
// open-addressing table of two typed arrays (12 bytes a slot, at most half full): about 60 bytes
// a leaf, and no object for the collector to trace.
//
// Deterministic like the rest of the chain: the table's layout never reaches the root (the
// accumulator is a sum, whatever the order of its terms), and nothing iterates it.

/** Marks a free table slot; ids are non-negative so it never collides. */
const EMPTY_KEY = -1
/** log2 of the initial table capacity. */
const INITIAL_BITS = 4
const INITIAL_CAPACITY = 1 << INITIAL_BITS
const DIGEST_BYTES = 32
/** 2^32, to split a safe integer into exact 32-bit halves. */
const TWO_POW_32 = 4_294_967_296

/** A DigestTable as plain data, which a structured clone carries to another thread. */
export interface DigestTableContents {
  readonly keys: Float64Array<ArrayBuffer>
  readonly cells: Int32Array<ArrayBuffer>
  readonly mask: number
  readonly shift: number
  readonly slab: Uint8Array<ArrayBuffer>
  readonly cellsUsed: number
  readonly freeCells: number[]
  readonly size: number
}

export class DigestTable {
  /** Table slot -> id, EMPTY_KEY when free. Capacity a power of two, at most half full. */
  private keys = new Float64Array(INITIAL_CAPACITY).fill(EMPTY_KEY)
  /** Table slot -> the digest's index in the slab. */
  private cells = new Int32Array(INITIAL_CAPACITY)
  private mask = INITIAL_CAPACITY - 1
  /** 32 - log2(capacity): Fibonacci hashing keeps the product's top bits. */
  private shift = 32 - INITIAL_BITS
  /** Digests, DIGEST_BYTES each, at their cell index. */
  private slab = new Uint8Array(INITIAL_CAPACITY * DIGEST_BYTES)
  /** Cells below this have been used; freed ones wait in `freeCells` for reuse. */
  private cellsUsed = 0
  private freeCells: number[] = []
  size = 0

  private home(id: number): number {
    const low = id >>> 0
    const high = (id - low) / TWO_POW_32
    return Math.imul(low ^ Math.imul(high, 0x85ebca6b), 0x9e3779b1) >>> this.shift
  }

  /** The table slot holding `id`, or -1: what readAt, writeAt and deleteAt take. */
  find(id: number): number {
    const keys = this.keys
    const mask = this.mask
    let slot = this.home(id)
    // Bound: the table is at most half full, so an empty slot ends every probe run.
    for (let probes = 0; probes <= mask; probes++) {
      const key = keys[slot]!
      if (key === id) return slot
      if (key === EMPTY_KEY) return -1
      slot = (slot + 1) & mask
    }
    return -1
  }

  has(id: number): boolean {
    return this.find(id) >= 0
  }

  /** Copies the digest at a slot find() returned into `out` (32 bytes). */
  readAt(slot: number, out: Uint8Array): void {
    const at = this.cells[slot]! * DIGEST_BYTES
    const slab = this.slab
    for (let i = 0; i < DIGEST_BYTES; i++) out[i] = slab[at + i]!
  }

  /** Overwrites the digest at a slot find() returned (32 bytes, copied). */
  writeAt(slot: number, digest: Uint8Array): void {
    const at = this.cells[slot]! * DIGEST_BYTES
    const slab = this.slab
    for (let i = 0; i < DIGEST_BYTES; i++) slab[at + i] = digest[i]!
  }

  /** Adds `id`, which find() did not find, with its digest (32 bytes, copied). */
  add(id: number, digest: Uint8Array): void {
    this.writeAt(this.insert(id), digest)
  }

  /** Removes the entry at a slot find() returned. */
  deleteAt(found: number): void {
    let hole = found
    this.freeCells.push(this.cells[hole]!)
    const keys = this.keys
    const cells = this.cells
    const mask = this.mask
    // Backward-shift deletion (as the book's IdIndex): pull later entries of the probe run into
    // the hole when their home is not cyclically inside (hole, slot], so no tombstones.
    let slot = hole
    for (let probes = 0; probes <= mask; probes++) {
      slot = (slot + 1) & mask
      const key = keys[slot]!
      if (key === EMPTY_KEY) break
      const home = this.home(key)
      const movable = slot > hole ? home <= hole || home > slot : home <= hole && home > slot
      if (movable) {
        keys[hole] = key
        cells[hole] = cells[slot]!
        hole = slot
      }
    }
    keys[hole] = EMPTY_KEY
    this.size -= 1
  }

  /** The table's arrays and counters as plain data (given away, not copied: the table is not used after). */
  contents(): DigestTableContents {
    const { keys, cells, mask, shift, slab, cellsUsed, freeCells, size } = this
    return { keys, cells, mask, shift, slab, cellsUsed, freeCells, size }
  }

  /** The table whose contents() these are. */
  static fromContents(c: DigestTableContents): DigestTable {
    // The contents are the table's own fields under their own names.
    return Object.assign(new DigestTable(), c)
  }

  /** A copy sharing nothing with this table. */
  clone(): DigestTable {
    const c = new DigestTable()
    c.keys = this.keys.slice()
    c.cells = this.cells.slice()
    c.mask = this.mask
    c.shift = this.shift
    c.slab = this.slab.slice()
    c.cellsUsed = this.cellsUsed
    c.freeCells = this.freeCells.slice()
    c.size = this.size
    return c
  }

  /** Adds `id` (absent) with a fresh cell; returns its table slot. */
  private insert(id: number): number {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow()
    const cell = this.freeCells.pop() ?? this.newCell()
    const keys = this.keys
    const mask = this.mask
    let slot = this.home(id)
    for (let probes = 0; probes <= mask; probes++) {
      if (keys[slot] === EMPTY_KEY) {
        keys[slot] = id
        this.cells[slot] = cell
        this.size += 1
        return slot
      }
      slot = (slot + 1) & mask
    }
    throw new Error('digest table full') // unreachable: load factor <= 1/2
  }

  private newCell(): number {
    const cell = this.cellsUsed++
    if ((cell + 1) * DIGEST_BYTES > this.slab.length) {
      const grown = new Uint8Array(this.slab.length * 2)
      grown.set(this.slab)
      this.slab = grown
    }
    return cell
  }

  private grow(): void {
    const oldKeys = this.keys
    const oldCells = this.cells
    const capacity = oldKeys.length * 2
    this.keys = new Float64Array(capacity).fill(EMPTY_KEY)
    this.cells = new Int32Array(capacity)
    this.mask = capacity - 1
    this.shift -= 1
    for (let i = 0; i < oldKeys.length; i++) {
      const key = oldKeys[i]!
      if (key === EMPTY_KEY) continue
      let slot = this.home(key)
      // Bound: the new table is at most a quarter full.
      for (let probes = 0; probes <= this.mask && this.keys[slot] !== EMPTY_KEY; probes++) slot = (slot + 1) & this.mask
      this.keys[slot] = key
      this.cells[slot] = oldCells[i]!
    }
  }
}
