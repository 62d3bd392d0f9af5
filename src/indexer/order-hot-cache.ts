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
  /**
   * The closes in the order they were added, oldest from `head` on, for eviction. An entry whose
   * order was added again since (or evicted) is stale: byId no longer holds that object. Eviction
   * used to walk byId from its start, but a Map's iteration also walks the slots of entries deleted
   * since, so once the cache was full every close cost time in proportion to all the closes before
   * it: 89 µs each after 400,000 (scripts/bench/order-hot-cache.ts), on the block thread.
   */
  private addOrder: ClosedOrder[] = []
  private head = 0

  add(o: ClosedOrder): void {
    this.remove(o.orderId)
    this.byId.set(o.orderId, o)
    if (o.clientOrderId !== null) this.byClient.set(clientKey(o.owner, o.marketId, o.clientOrderId), o.orderId)
    this.addOrder.push(o)
    // Add order is close order, so the oldest are first.
    while (this.head < this.addOrder.length) {
      const old = this.addOrder[this.head]!
      if (this.byId.get(old.orderId) === old) {
        if (this.byId.size <= HOT_CACHE_ENTRIES_MAX && old.timestampMs >= o.timestampMs - HOT_CACHE_WINDOW_MS) break
        this.remove(old.orderId)
      }
      this.head++
    }
    // The evicted prefix is dropped once it is most of the array, so memory follows the live entries.
    if (this.head > 4_096 && this.head * 2 > this.addOrder.length) {
      this.addOrder = this.addOrder.slice(this.head)
      this.head = 0
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
