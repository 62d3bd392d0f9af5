// Derives `order_events` (a row per lifecycle event: OrderHistoryRecord,
// docs/history-api.md#fills-and-orders, docs/orders.md#order-lifecycle) and the `orders` archive
// from OrderAccepted, OrderResting, OrderDone, OrderExpired, and the trigger origin of promoted
// orders from TriggerActivated.
//
// The batch's order_events rows are written at its end, sorted by their key. A row is never
// changed when its order closes (tables/order-events.ts says how the default list leaves out open
// orders); a TriggerActivated after its order's first rows sets their trigger id.

import { insertOrderEvent, type OrderEventInsert, setOrderTrigger } from '../tables/order-events.ts'
import type { DeriveEvent, DeriveModule } from './types.ts'

export const ordersModule: DeriveModule = {
  table: 'order_events',
  subKinds: ['OrderAccepted', 'OrderResting', 'OrderDone', 'OrderExpired', 'TriggerActivated'],
  create: (db, { orders: archive }) => {
    const rows: OrderEventInsert[] = []
    const rowsOfOrder = new Map<number, OrderEventInsert[]>()
    const add = (row: OrderEventInsert) => {
      rows.push(row)
      const own = rowsOfOrder.get(row.orderId)
      if (own === undefined) rowsOfOrder.set(row.orderId, [row])
      else own.push(row)
    }
    return {
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
            archive.accepted({
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
            add({
              ...base,
              eventType: 'Accepted',
              side: b.side,
              price: b.price,
              qty: b.qty,
              remaining: null,
              reason: null,
              clientOrderId,
              triggerId: archive.tags(orderId)?.trigger_id ?? null,
            })
            return
          }
          case 'OrderResting': {
            archive.resting({ orderId, owner, marketId, remaining: b.remaining, height: e.height, seq: e.seq })
            add({
              ...base,
              eventType: 'Resting',
              side: null,
              price: null,
              qty: null,
              remaining: null,
              reason: null,
              clientOrderId: b.client_order_id ?? null,
              triggerId: archive.tags(orderId)?.trigger_id ?? null,
            })
            return
          }
          case 'OrderDone':
          case 'OrderExpired': {
            const clientOrderId = b.client_order_id ?? null
            const reason = b.reason
            const remaining = b.remaining
            archive.closed({
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
            const tags = archive.tags(orderId)
            add({
              ...base,
              eventType: b.sub_kind === 'OrderDone' ? 'Done' : 'Expired',
              side: null,
              price: null,
              qty: null,
              remaining,
              reason,
              clientOrderId: clientOrderId ?? tags?.client_order_id ?? null,
              triggerId: tags?.trigger_id ?? null,
            })
            return
          }
          case 'TriggerActivated': {
            const triggerId = b.trigger_id
            archive.triggerOrigin({ orderId, owner, marketId, triggerId, height: e.height, seq: e.seq })
            for (const row of rowsOfOrder.get(orderId) ?? []) row.triggerId ??= triggerId
            setOrderTrigger(db, orderId, triggerId)
            return
          }
        }
      },
      endBatch() {
        rows.sort(compareOrderEventKeys)
        for (const row of rows) insertOrderEvent(db, row)
        rows.length = 0
        rowsOfOrder.clear()
      },
    }
  },
}

/** The order_events primary key order: (owner, height, seq). */
function compareOrderEventKeys(a: OrderEventInsert, b: OrderEventInsert): number {
  if (a.owner !== b.owner) return a.owner < b.owner ? -1 : 1
  return a.height - b.height || a.seq - b.seq
}
