// Derives `order_events` (a row per lifecycle event, spec §2.5 OrderHistoryRecord, §3.2) and the
// `orders` archive from OrderAccepted, OrderResting, OrderDone, OrderExpired, and the trigger
// origin of promoted orders from TriggerActivated.
import { archiveAccepted, archiveClosed, archiveResting, archiveTriggerOrigin, orderTags } from '../tables/orders.ts'
import { insertOrderEvent, markOrderClosed, setOrderTrigger } from '../tables/order-events.ts'
import { optStr, str, type DeriveEvent, type DeriveModule } from './types.ts'

export const ordersModule: DeriveModule = {
  table: 'order_events',
  subKinds: ['OrderAccepted', 'OrderResting', 'OrderDone', 'OrderExpired', 'TriggerActivated'],
  create: (db) => ({
    event(e: DeriveEvent) {
      const b = e.body
      const orderId = Number(b.order_id)
      const owner = e.account ?? str(b, 'account')
      const marketId = e.marketId ?? Number(b.market_id)
      const clientOrderId = optStr(b, 'client_order_id')
      const base = { owner, height: e.height, seq: e.seq, timestampMs: e.timestampMs, orderId, marketId }
      switch (e.subKind) {
        case 'OrderAccepted': {
          archiveAccepted(db, {
            orderId, owner, marketId, side: str(b, 'side'), price: str(b, 'price'), qty: str(b, 'qty'), tif: optStr(b, 'tif'),
            reduceOnly: typeof b.reduce_only === 'boolean' ? b.reduce_only : null, clientOrderId, height: e.height, seq: e.seq, timestampMs: e.timestampMs,
          })
          insertOrderEvent(db, {
            ...base, eventType: 'Accepted', side: str(b, 'side'), price: str(b, 'price'), qty: str(b, 'qty'), remaining: null, reason: null,
            clientOrderId, triggerId: orderTags(db, orderId)?.trigger_id ?? null, open: true,
          })
          return
        }
        case 'OrderResting': {
          archiveResting(db, { orderId, owner, marketId, remaining: str(b, 'remaining'), height: e.height, seq: e.seq })
          insertOrderEvent(db, {
            ...base, eventType: 'Resting', side: null, price: null, qty: null, remaining: null, reason: null,
            clientOrderId, triggerId: orderTags(db, orderId)?.trigger_id ?? null, open: true,
          })
          return
        }
        case 'OrderDone':
        case 'OrderExpired': {
          const reason = optStr(b, 'reason') ?? (e.subKind === 'OrderExpired' ? 'Expired' : 'Cancelled')
          const remaining = str(b, 'remaining')
          archiveClosed(db, {
            orderId, owner, marketId, reason, remaining, filled: optStr(b, 'filled'), clientOrderId, height: e.height, seq: e.seq, timestampMs: e.timestampMs,
          })
          const tags = orderTags(db, orderId)
          insertOrderEvent(db, {
            ...base, eventType: e.subKind === 'OrderDone' ? 'Done' : 'Expired', side: null, price: null, qty: null, remaining, reason,
            clientOrderId: clientOrderId ?? tags?.client_order_id ?? null, triggerId: tags?.trigger_id ?? null, open: false,
          })
          markOrderClosed(db, orderId)
          return
        }
        case 'TriggerActivated': {
          const triggerId = Number(b.trigger_id)
          archiveTriggerOrigin(db, { orderId, owner, marketId, triggerId, height: e.height, seq: e.seq })
          setOrderTrigger(db, orderId, triggerId)
          return
        }
      }
    },
  }),
}
