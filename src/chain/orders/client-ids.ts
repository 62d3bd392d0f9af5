// An index of client ids (client_order_id) to ids, per market: an account's resting orders
// (Account.ordersByClientId) and its active triggers (AccountTriggers.triggersByClientId). Derived
// state, not a leaf: the orders and triggers carry their client ids.
//
// Every resting order with a client id is set here and deleted again, and every cancel or amend by
// client id looks here, so this sits on the hottest paths. A Map keyed by strings cost 250-330 ns
// per operation there (hashing a fresh string from the request, probing a table that churns with
// deletions). This is an open-addressing table: the key is the pair (market, client id), hashed
// with FNV-1a over the id's char codes (at most 64 of them, by the action schema), probed linearly
// in a table at most half full, with backward-shift deletion (no tombstones, so no rebuilds under
// churn). The hash is not keyed, but each table is one account's and holds at most its open orders
// (or triggers), so crafted collisions slow only a bounded probe of the account's own actions.
// Readers that hold the combined key (the API) use get(`${marketId}:${cloid}`); size and iteration
// are kept for tests and audits.

/** Slots of a table's first allocation (a power of two). */
const INITIAL_SLOTS = 8

/** FNV-1a over the client id's UTF-16 code units, then the market mixed in: the hash of the key (marketId, clientId). */
export function clientIdHash(marketId: number, clientId: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < clientId.length; i++) h = Math.imul(h ^ clientId.charCodeAt(i), 0x01000193)
  return Math.imul(h ^ marketId, 0x9e3779b1) ^ (h >>> 15)
}

export class ClientIdIndex {
  /** Per slot: the client id, undefined when the slot is empty. */
  private clientIds: (string | undefined)[] = []
  private markets: Uint32Array = new Uint32Array(0)
  private ids: Float64Array = new Float64Array(0)
  /** Per slot: clientIdHash of its key, so deletions move entries without hashing strings again. */
  private hashes: Int32Array = new Int32Array(0)
  private count = 0

  /** Number of client ids indexed, over all markets. */
  get size(): number {
    return this.count
  }

  /**
   * The slot holding (marketId, clientId), or -1. The table is at most half full, so a probe ends.
   * A slot's stored hash and market are compared before its client id: the id is a string
   * elsewhere in memory, often cold, so only a slot that matches both is worth following to it
   * (no figure logged).
   */
  private find(marketId: number, clientId: string, hash: number): number {
    const mask = this.clientIds.length - 1
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const key = this.clientIds[i]
      if (key === undefined) return -1
      if (this.hashes[i] === hash && this.markets[i] === marketId && key === clientId) return i
    }
  }

  /** The id under a client id in a market. */
  getIn(marketId: number, clientId: string, hash: number = clientIdHash(marketId, clientId)): number | undefined {
    if (this.count === 0) return undefined
    const i = this.find(marketId, clientId, hash)
    return i < 0 ? undefined : this.ids[i]
  }

  hasIn(marketId: number, clientId: string): boolean {
    return this.count !== 0 && this.find(marketId, clientId, clientIdHash(marketId, clientId)) >= 0
  }

  /** Sets (marketId, clientId) to id; hash is clientIdHash(marketId, clientId), when the caller has it. */
  setIn(marketId: number, clientId: string, id: number, hash: number = clientIdHash(marketId, clientId)): void {
    if ((this.count + 1) * 2 > this.clientIds.length) this.grow()
    const mask = this.clientIds.length - 1
    let i = hash & mask
    for (;;) {
      const key = this.clientIds[i]
      if (key === undefined) break
      if (this.hashes[i] === hash && this.markets[i] === marketId && key === clientId) {
        this.ids[i] = id
        return
      }
      i = (i + 1) & mask
    }
    this.clientIds[i] = clientId
    this.markets[i] = marketId
    this.ids[i] = id
    this.hashes[i] = hash
    this.count++
  }

  /**
   * Deletes the entry of (marketId, the client id whose clientIdHash is hash) when it holds id: the
   * form for an order or trigger leaving, which carries its hash and its id. The id tells the entry
   * apart, so the client id's string is never read.
   */
  deleteId(marketId: number, hash: number, id: number): void {
    if (this.count === 0) return
    const mask = this.clientIds.length - 1
    for (let i = hash & mask; this.clientIds[i] !== undefined; i = (i + 1) & mask) {
      if (this.hashes[i] === hash && this.ids[i] === id && this.markets[i] === marketId) {
        this.removeSlot(i)
        return
      }
    }
  }

  /** Empties a used slot, moving later entries of its probe run back over it. */
  private removeSlot(at: number): void {
    let hole = at
    // Backward-shift deletion: later entries of the probe run move into the hole when their home
    // slot is not cyclically within (hole, slot], so every key stays reachable without tombstones.
    const { clientIds, markets, ids, hashes } = this
    const mask = clientIds.length - 1
    for (let slot = (hole + 1) & mask; clientIds[slot] !== undefined; slot = (slot + 1) & mask) {
      const home = hashes[slot]! & mask
      const movable = slot > hole ? home <= hole || home > slot : home <= hole && home > slot
      if (movable) {
        clientIds[hole] = clientIds[slot]!
        markets[hole] = markets[slot]!
        ids[hole] = ids[slot]!
        hashes[hole] = hashes[slot]!
        hole = slot
      }
    }
    clientIds[hole] = undefined
    this.count--
  }

  /** Twice the slots (at least INITIAL_SLOTS), the entries re-filed. */
  private grow(): void {
    const { clientIds, markets, ids, hashes } = this
    const size = Math.max(INITIAL_SLOTS, clientIds.length * 2)
    this.clientIds = new Array<string | undefined>(size).fill(undefined)
    this.markets = new Uint32Array(size)
    this.ids = new Float64Array(size)
    this.hashes = new Int32Array(size)
    const mask = size - 1
    for (let j = 0; j < clientIds.length; j++) {
      if (clientIds[j] === undefined) continue
      let i = hashes[j]! & mask
      while (this.clientIds[i] !== undefined) i = (i + 1) & mask
      this.clientIds[i] = clientIds[j]!
      this.markets[i] = markets[j]!
      this.ids[i] = ids[j]!
      this.hashes[i] = hashes[j]!
    }
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
    for (let i = 0; i < this.clientIds.length; i++)
      if (this.clientIds[i] !== undefined) yield [`${this.markets[i]}:${this.clientIds[i]}`, this.ids[i]!]
  }

  [Symbol.iterator](): IterableIterator<[string, number]> {
    return this.entries()
  }
}
