// BatchPlaceOrder: up to BATCH_LIMITS.batchOrdersMax PlaceOrder items applied in order, each as a
// PlaceOrder of its own. A rejected item changes nothing (placeOrder rejects before any mutation)
// and emits BatchItemRejected with its index and reason; the items after it still apply. The
// envelope itself is accepted whenever the batch is well-formed (its schema is checked at
// admission), even when every item is rejected: the outcome of each item is in the events.
import { type ActionContext, type HandlerPayloads, OK, type Outcome } from '../core/action-context.ts'
import type { Rejection } from '../core/reasons.ts'
import type { BatchItemRejectedEvent } from './order-events.ts'
import { ORDER_LIMITS } from './order-indexes.ts'
import type { PlaceContext } from './order-types.ts'
import { decodePlaceOrder, isRejection, placeOrder } from './place-order.ts'

/** The event of a rejected batch item. */
export function batchItemRejected(
  ctx: ActionContext,
  actionKind: BatchItemRejectedEvent['action_kind'],
  index: number,
  marketId: number | null,
  r: Rejection,
): BatchItemRejectedEvent {
  return {
    kind: 'Core',
    sub_kind: 'BatchItemRejected',
    market_id: marketId,
    account: ctx.account.address,
    action_kind: actionKind,
    index,
    reason: r.reason,
    message: r.message,
  }
}

/** The PlaceContext of an order placed by an envelope (ActionContext.place): its block, tx hash
 * and a null source trigger, in an object built once per block. */
export const envelopePlaceContext = (ctx: ActionContext): PlaceContext => ctx.place

/** Applies a BatchPlaceOrder; always accepted (item outcomes are events). */
export function batchPlaceOrder(ctx: ActionContext, p: HandlerPayloads['BatchPlaceOrder']): Outcome {
  const placeCtx = envelopePlaceContext(ctx)
  // Bounded by the schema's maxItems, and again here.
  const count = Math.min(p.orders.length, ORDER_LIMITS.batchOrdersMax)
  for (let i = 0; i < count; i++) {
    const item = p.orders[i]!
    const decoded = decodePlaceOrder(ctx.state, item)
    const out = isRejection(decoded) ? decoded : placeOrder(ctx.state, ctx.account, decoded, placeCtx, ctx.events)
    if (typeof out !== 'number') ctx.events.push(batchItemRejected(ctx, 'BatchPlaceOrder', i, item.market_id, out))
  }
  return OK
}
