// The 24-hour hot cache of closed orders (docs/rpc.md#getorderstatus): filled on the main thread
// from committed blocks' OrderDone / OrderExpired, so an order closed a moment ago is reported
// closed before the index has derived its block. Older closes are answered from the permanent
// archive.

export interface ClosedOrder {
  readonly orderId: number
  readonly owner: string
  readonly marketId: number
  readonly reason: string
  readonly remaining: string
  readonly filled: string | null
  readonly clientOrderId: string | null
  readonly height: number
  readonly timestampMs: number
}

/** How long a close stays in the hot cache, in block time. */
export const HOT_CACHE_WINDOW_MS = 24 * 60 * 60 * 1000
/** Entries kept at most (a busy day closes more orders than memory should hold). */
export const HOT_CACHE_ENTRIES_MAX = 200_000

export class ClosedOrderCache {
  private readonly byId = new Map<number, ClosedOrder>()
  private readonly byClient = new Map<string, number>()

  add(o: ClosedOrder): void {
    this.remove(o.orderId)
    this.byId.set(o.orderId, o)
    if (o.clientOrderId !== null) this.byClient.set(clientKey(o.owner, o.marketId, o.clientOrderId), o.orderId)
    // Insertion order is close order, so the oldest are first.
    for (const [id, old] of this.byId) {
      if (this.byId.size <= HOT_CACHE_ENTRIES_MAX && old.timestampMs >= o.timestampMs - HOT_CACHE_WINDOW_MS) break
      this.remove(id)
    }
  }

  private remove(orderId: number): void {
    const old = this.byId.get(orderId)
    if (old === undefined) return
    this.byId.delete(orderId)
    if (old.clientOrderId !== null) {
      const key = clientKey(old.owner, old.marketId, old.clientOrderId)
      if (this.byClient.get(key) === orderId) this.byClient.delete(key)
    }
  }

  get(orderId: number): ClosedOrder | undefined {
    return this.byId.get(orderId)
  }

  /** The newest cached close of owner's order with this client id in a market. */
  byClientId(owner: string, marketId: number, clientOrderId: string): ClosedOrder | undefined {
    const id = this.byClient.get(clientKey(owner, marketId, clientOrderId))
    return id === undefined ? undefined : this.byId.get(id)
  }

  get size(): number {
    return this.byId.size
  }
}

const clientKey = (owner: string, marketId: number, clientOrderId: string) => `${owner}:${marketId}:${clientOrderId}`
