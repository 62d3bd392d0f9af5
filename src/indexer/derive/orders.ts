// Derives `order_events` (a row per lifecycle event: OrderHistoryRecord,
// docs/history-api.md#fills-and-orders, docs/orders.md#order-lifecycle) and the `orders` archive
// from OrderAccepted, OrderResting, OrderDone, OrderExpired, and the trigger origin of promoted
// orders from TriggerActivated.

import { insertOrderEvent, markOrderClosed, setOrderTrigger } from '../tables/order-events.ts'
import { archiveAccepted, archiveClosed, archiveResting, archiveTriggerOrigin, orderTags } from '../tables/orders.ts'
import type { DeriveEvent, DeriveModule } from './types.ts'

export const ordersModule: DeriveModule = {
  table: 'order_events',
  subKinds: ['OrderAccepted', 'OrderResting', 'OrderDone', 'OrderExpired', 'TriggerActivated'],
  create: (db) => ({
    event(e: DeriveEvent) {
      const b = e.body
      if (
        b.sub_kind !== 'OrderAccepted' &&
        b.sub_kind !== 'OrderResting' &&
        b.sub_kind !== 'OrderDone' &&
        b.sub_kind !== 'OrderExpired' &&
        b.sub_kind !== 'TriggerActivated'
      )
        return
      const orderId = b.order_id
      const owner = e.account ?? b.account
      const marketId = e.marketId ?? b.market_id
      const base = { owner, height: e.height, seq: e.seq, timestampMs: e.timestampMs, orderId, marketId }
      switch (b.sub_kind) {
        case 'OrderAccepted': {
          const clientOrderId = b.client_order_id ?? null
          archiveAccepted(db, {
            orderId,
            owner,
            marketId,
            side: b.side,
            price: b.price,
            qty: b.qty,
            tif: b.tif,
            reduceOnly: b.reduce_only,
            clientOrderId,
            height: e.height,
            seq: e.seq,
            timestampMs: e.timestampMs,
          })
          insertOrderEvent(db, {
            ...base,
            eventType: 'Accepted',
            side: b.side,
            price: b.price,
            qty: b.qty,
            remaining: null,
            reason: null,
            clientOrderId,
            triggerId: orderTags(db, orderId)?.trigger_id ?? null,
            open: true,
          })
          return
        }
        case 'OrderResting': {
          archiveResting(db, { orderId, owner, marketId, remaining: b.remaining, height: e.height, seq: e.seq })
          insertOrderEvent(db, {
            ...base,
            eventType: 'Resting',
            side: null,
            price: null,
            qty: null,
            remaining: null,
            reason: null,
            clientOrderId: b.client_order_id ?? null,
            triggerId: orderTags(db, orderId)?.trigger_id ?? null,
            open: true,
          })
          return
        }
        case 'OrderDone':
        case 'OrderExpired': {
          const clientOrderId = b.client_order_id ?? null
          const reason = b.reason
          const remaining = b.remaining
          archiveClosed(db, {
            orderId,
            owner,
            marketId,
            reason,
            remaining,
            filled: b.filled,
            clientOrderId,
            height: e.height,
            seq: e.seq,
            timestampMs: e.timestampMs,
          })
          const tags = orderTags(db, orderId)
          insertOrderEvent(db, {
            ...base,
            eventType: b.sub_kind === 'OrderDone' ? 'Done' : 'Expired',
            side: null,
            price: null,
            qty: null,
            remaining,
            reason,
            clientOrderId: clientOrderId ?? tags?.client_order_id ?? null,
            triggerId: tags?.trigger_id ?? null,
            open: false,
          })
          markOrderClosed(db, orderId)
          return
        }
        case 'TriggerActivated': {
          const triggerId = b.trigger_id
          archiveTriggerOrigin(db, { orderId, owner, marketId, triggerId, height: e.height, seq: e.seq })
          setOrderTrigger(db, orderId, triggerId)
          return
        }
      }
    },
  }),
}
