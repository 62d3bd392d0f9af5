// Time-based expiry of resting orders (PlaceOrder.expires_at_ms): a begin-block hook removes every
// resting order whose expires_at_ms is before the block's time, earliest first (ties by order id),
// with an OrderExpired event (reason Expired; orderUpdates kind `expired`, history event_type
// `Expired`). The queue (order-indexes.ts) costs only what expires: orders that left the book
// another way are stale entries, skipped when they come up. At most
// ORDER_LIMITS.expiriesPerBlockMax orders expire per block; the rest expire in the next blocks.
import type { BlockHook } from '../core/action-context.ts'
import { ORDER_LIMITS } from './order-indexes.ts'
import { unrestOrder } from './order-ops.ts'

/** Begin-block hook: expires the resting orders whose time has passed. */
export const expireOrdersHook: BlockHook = (ctx) => {
  const { state, events } = ctx
  const queue = state.orderIndexes.expiries
  let expired = 0
  for (let pops = 0; pops < ORDER_LIMITS.expiryPopsPerBlockMax && expired < ORDER_LIMITS.expiriesPerBlockMax; pops++) {
    const order = queue.peek()
    if (order === undefined || order.expiresAtMs! >= ctx.timestampMs) break
    queue.pop()
    // Stale: filled, cancelled or replaced since it was queued.
    if (state.books.get(order.marketId)?.get(order.id) !== order) continue
    const account = state.accounts.get(order.owner)!
    expired++
    const remaining = order.remainingLots
    unrestOrder(state, account, order)
    events.push({
      kind: 'Exec',
      sub_kind: 'OrderExpired',
      market_id: order.marketId,
      account: account.address,
      order_id: order.id,
      reason: 'Expired',
      remaining_lots: remaining,
      filled_lots: order.origLots - remaining,
      expires_at_ms: order.expiresAtMs!,
      client_order_id: order.clientOrderId,
    })
  }
}
