// An index of client ids (client_order_id) to ids, per market: an account's resting orders
// (Account.ordersByClientId) and its active triggers (AccountTriggers.triggersByClientId). Derived
// state, not a leaf: the orders and triggers carry their client ids.
//
// It replaces a Map keyed by `${marketId}:${cloid}`: building that key for every order with a client
// id (and for every cancel or amend by one) cost a string concatenation, and hashing it a flattening
// copy, on the hottest paths. Here the market selects a small map keyed by the client id string as
// the action carried it, whose hash the engine computes once per string. Readers that hold the
// combined key (the API) still use get(`${marketId}:${cloid}`); size and iteration (combined keys,
// market by market) are kept for tests and audits.

export class ClientIdIndex {
  private readonly byMarket = new Map<number, Map<string, number>>()
  private count = 0

  /** Number of client ids indexed, over all markets. */
  get size(): number {
    return this.count
  }

  /** The id under a client id in a market. */
  getIn(marketId: number, clientId: string): number | undefined {
    return this.byMarket.get(marketId)?.get(clientId)
  }

  hasIn(marketId: number, clientId: string): boolean {
    return this.byMarket.get(marketId)?.has(clientId) ?? false
  }

  setIn(marketId: number, clientId: string, id: number): void {
    let ids = this.byMarket.get(marketId)
    if (ids === undefined) {
      ids = new Map()
      this.byMarket.set(marketId, ids)
    }
    const size = ids.size
    ids.set(clientId, id)
    this.count += ids.size - size
  }

  deleteIn(marketId: number, clientId: string): void {
    const ids = this.byMarket.get(marketId)
    if (ids !== undefined && ids.delete(clientId)) this.count--
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

  /** [`${marketId}:${cloid}`, id] pairs, market by market, each market's in insertion order. */
  *entries(): IterableIterator<[string, number]> {
    for (const [marketId, ids] of this.byMarket) for (const [clientId, id] of ids) yield [`${marketId}:${clientId}`, id]
  }

  *keys(): IterableIterator<string> {
    for (const [key] of this.entries()) yield key
  }

  *values(): IterableIterator<number> {
    for (const ids of this.byMarket.values()) yield* ids.values()
  }

  [Symbol.iterator](): IterableIterator<[string, number]> {
    return this.entries()
  }
}
