// Handlers of the order actions (area: orders).
import type { CancelOrderPayload, PlaceOrderPayload } from '../wire/actions.ts'
import type { HandlerMap } from './action-context.ts'
import { cancelOrder } from './cancel-order.ts'
import { decodePlaceOrder, placeOrder } from './place-order.ts'

export const ORDER_HANDLERS: HandlerMap = {
  PlaceOrder: (ctx, p: PlaceOrderPayload) => {
    const decoded = decodePlaceOrder(ctx.state, p)
    if (!decoded.ok) return decoded
    return placeOrder(ctx.state, ctx.account, decoded.value, { height: ctx.height, timestampMs: ctx.timestampMs, txHash: ctx.txHash, sourceTriggerId: null }, ctx.events)
  },
  CancelOrder: (ctx, p: CancelOrderPayload) => cancelOrder(ctx.state, ctx.account, p, ctx.events),
}
