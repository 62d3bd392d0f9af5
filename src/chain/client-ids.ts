// An index of client ids (client_order_id) to ids, per market: an account's resting orders
// (Account.ordersByClientId) and its active triggers (AccountTriggers.triggersByClientId). Derived
// state, not a leaf: the orders and triggers carry their client ids.
//
// Every resting order with a client id is set here and deleted again, and every cancel or amend by
// client id looks here, so this sits on the hottest paths. A Map keyed by strings cost 250-330 ns
// per operation there (hashing a fresh string from the request, probing a table that churns with
// deletions). This is an open-addressing table over typed arrays: the key is the pair (market,
// client id), hashed with FNV-1a over the id's char codes (at most 64 of them, by the action
// schema), probed linearly; a deletion leaves a tombstone, and the table is rebuilt when tombstones
// and entries together fill three quarters of it. Readers that hold the combined key (the API) use
// get(`${marketId}:${cloid}`); size and iteration are kept for tests and audits.

const EMPTY = 0
const FULL = 1
const TOMBSTONE = 2
/** Slots of a table's first allocation (a power of two). */
const INITIAL_SLOTS = 8

/** FNV-1a over the client id's UTF-16 code units, then the market mixed in. */
function hashOf(marketId: number, clientId: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < clientId.length; i++) h = Math.imul(h ^ clientId.charCodeAt(i), 0x01000193)
  return Math.imul(h ^ marketId, 0x9e3779b1) ^ (h >>> 15)
}

export class ClientIdIndex {
  private slots: Uint8Array = new Uint8Array(0)
  private markets: Uint32Array = new Uint32Array(0)
  private ids: Float64Array = new Float64Array(0)
  private clientIds: string[] = []
  private count = 0
  /** Slots not EMPTY: entries and tombstones. */
  private used = 0

  /** Number of client ids indexed, over all markets. */
  get size(): number {
    return this.count
  }

  /** The slot holding (marketId, clientId), or -1. */
  private find(marketId: number, clientId: string): number {
    const mask = this.slots.length - 1
    for (let i = hashOf(marketId, clientId) & mask; ; i = (i + 1) & mask) {
      const s = this.slots[i]
      if (s === EMPTY) return -1
      if (s === FULL && this.markets[i] === marketId && this.clientIds[i] === clientId) return i
    }
  }

  /** The id under a client id in a market. */
  getIn(marketId: number, clientId: string): number | undefined {
    if (this.count === 0) return undefined
    const i = this.find(marketId, clientId)
    return i < 0 ? undefined : this.ids[i]
  }

  hasIn(marketId: number, clientId: string): boolean {
    return this.count !== 0 && this.find(marketId, clientId) >= 0
  }

  setIn(marketId: number, clientId: string, id: number): void {
    if ((this.used + 1) * 4 > this.slots.length * 3) this.rebuild()
    const mask = this.slots.length - 1
    let free = -1
    for (let i = hashOf(marketId, clientId) & mask; ; i = (i + 1) & mask) {
      const s = this.slots[i]
      if (s === FULL) {
        if (this.markets[i] === marketId && this.clientIds[i] === clientId) {
          this.ids[i] = id
          return
        }
      } else if (s === TOMBSTONE) {
        if (free < 0) free = i
      } else {
        if (free < 0) {
          free = i
          this.used++
        }
        break
      }
    }
    this.slots[free] = FULL
    this.markets[free] = marketId
    this.clientIds[free] = clientId
    this.ids[free] = id
    this.count++
  }

  deleteIn(marketId: number, clientId: string): void {
    if (this.count === 0) return
    const i = this.find(marketId, clientId)
    if (i < 0) return
    this.slots[i] = TOMBSTONE
    this.clientIds[i] = '' // let the string go
    this.count--
  }

  /** A new table for the entries without tombstones: twice the slots when half full or more. */
  private rebuild(): void {
    const { slots, markets, ids, clientIds } = this
    const size = Math.max(INITIAL_SLOTS, this.count * 2 >= slots.length ? slots.length * 2 : slots.length)
    this.slots = new Uint8Array(size)
    this.markets = new Uint32Array(size)
    this.ids = new Float64Array(size)
    this.clientIds = new Array<string>(size).fill('')
    this.count = 0
    this.used = 0
    for (let i = 0; i < slots.length; i++) if (slots[i] === FULL) this.setIn(markets[i]!, clientIds[i]!, ids[i]!)
  }

  /** By the combined key `${marketId}:${cloid}`: what a Map keyed that way would give. */
  get(key: string): number | undefined {
    const colon = key.indexOf(':')
    if (colon <= 0) return undefined
    const market = key.slice(0, colon)
    const marketId = Number(market)
    // Only the canonical decimal form names a market, as with string keys ("01:x" is not "1:x").
    if (!Number.isSafeInteger(marketId) || String(marketId) !== market) return undefined
    return this.getIn(marketId, key.slice(colon + 1))
  }

  has(key: string): boolean {
    return this.get(key) !== undefined
  }

  /** [`${marketId}:${cloid}`, id] pairs, in table order. */
  *entries(): IterableIterator<[string, number]> {
    for (let i = 0; i < this.slots.length; i++) if (this.slots[i] === FULL) yield [`${this.markets[i]}:${this.clientIds[i]}`, this.ids[i]!]
  }

  [Symbol.iterator](): IterableIterator<[string, number]> {
    return this.entries()
  }
}
