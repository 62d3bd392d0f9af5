// Derives `order_events` (a row per lifecycle event: OrderHistoryRecord,
// docs/history-api.md#fills-and-orders, docs/orders.md#order-lifecycle) and the `orders` archive
// from OrderAccepted, OrderResting, OrderDone, OrderExpired, and the trigger origin of promoted
// orders from TriggerActivated.
//
// The batch's order_events rows are written at its end, sorted by their key. A row is never
// changed once written: not when its order closes (tables/order-events.ts says how the default list
// leaves out open orders), and not for a trigger. The chain raises TriggerActivated before any event
// of the order it promotes, in the same block (chain/triggers/triggers.ts fireTrigger), so the
// archive holds the trigger id before the order's first row is made, and each row takes it from
// there.

import { insertOrderEvents, type OrderEventInsert } from '../tables/order-events.ts'
import type { DeriveEvent, DeriveModule } from './types.ts'

export const ordersModule: DeriveModule = {
  table: 'order_events',
  subKinds: ['OrderAccepted', 'OrderResting', 'OrderDone', 'OrderExpired', 'TriggerActivated'],
  create: (db, { orders: archive }) => {
    const rows: OrderEventInsert[] = []
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
            rows.push({
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
            rows.push({
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
            rows.push({
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
            archive.triggerOrigin({ orderId, owner, marketId, triggerId: b.trigger_id, height: e.height, seq: e.seq })
            return
          }
        }
      },
      endBatch() {
        rows.sort(compareOrderEventKeys)
        insertOrderEvents(db, rows)
        rows.length = 0
      },
    }
  },
}

/** The order_events primary key order: (owner, height, seq). */
function compareOrderEventKeys(a: OrderEventInsert, b: OrderEventInsert): number {
  if (a.owner !== b.owner) return a.owner < b.owner ? -1 : 1
  return a.height - b.height || a.seq - b.seq
}
