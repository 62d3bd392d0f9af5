// Handlers of the order actions (area: orders).
import type { ORDER_ACTIONS } from '../../wire/actions/orders.ts'
import { type AreaHandlers, OK } from '../core/action-context.ts'
import { batchModify } from './batch-modify.ts'
import { batchPlaceOrder, envelopePlaceContext } from './batch-place-order.ts'
import { cancelOrder } from './cancel-order.ts'
import { scheduleCancel } from './dead-mans-switch.ts'
import { massCancel } from './mass-cancel.ts'
import { noop } from './noop.ts'
import { decodePlaceOrder, isRejection, placeOrder } from './place-order.ts'

export const ORDER_HANDLERS = {
  PlaceOrder: (ctx, p) => {
    const decoded = decodePlaceOrder(ctx.state, p)
    if (isRejection(decoded)) return decoded
    const placed = placeOrder(ctx.state, ctx.account, decoded, envelopePlaceContext(ctx), ctx.events)
    return typeof placed === 'number' ? OK : placed
  },
  CancelOrder: (ctx, p) => cancelOrder(ctx.state, ctx.account, p, ctx.events) ?? OK,
  BatchPlaceOrder: (ctx, p) => batchPlaceOrder(ctx, p),
  BatchModify: (ctx, p) => batchModify(ctx, p),
  MassCancel: (ctx, p) => massCancel(ctx.state, ctx.account, p, ctx.events),
  ScheduleCancel: (ctx, p) => scheduleCancel(ctx.state, ctx.account, p, ctx.timestampMs, ctx.events),
  Noop: () => noop(),
} satisfies AreaHandlers<typeof ORDER_ACTIONS>
