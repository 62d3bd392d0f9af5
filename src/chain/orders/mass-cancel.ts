// MassCancel (docs/actions.md#masscancel): by Owner (every resting order of the account, or of one
// market when market_id is given), by Side (one side of one market) or by Ids (the listed orders;
// ids that are not open orders of the account, in the market when given, are reported in the
// summary event and do not reject the action). Each cancelled order gets OrderDone Cancelled, then
// one MassCancelDone sums it up.
import type { MassCancelPayload } from '../../wire/actions.ts'
import { OK, type Outcome } from '../core/action-context.ts'
import type { EventSink } from '../core/events.ts'
import { reject } from '../core/reasons.ts'
import { type Account, type ChainState, LIMITS, type Order } from '../core/types.ts'
import { ORDER_LIMITS } from './order-indexes.ts'
import { cancelRestingOrder } from './order-ops.ts'

/** Cancels the selected resting orders of account. */
export function massCancel(state: ChainState, account: Account, p: MassCancelPayload, events: EventSink): Outcome {
  if (p.by === 'Side' && (p.market_id === undefined || p.side === undefined))
    return reject('InvalidMassCancel', 'by Side needs market_id and side')
  if (p.by !== 'Side' && p.side !== undefined) return reject('InvalidMassCancel', `side is only for by Side, not by ${p.by}`)
  if (p.by === 'Ids' && p.order_ids === undefined) return reject('InvalidMassCancel', 'by Ids needs order_ids')
  if (p.by !== 'Ids' && p.order_ids !== undefined) return reject('InvalidMassCancel', `order_ids is only for by Ids, not by ${p.by}`)
  if (p.market_id !== undefined && !state.markets.has(p.market_id)) return reject('MarketNotFound', `market ${p.market_id} does not exist`)

  // After this point the mass cancel must succeed.
  const inMarket = (o: Order) => p.market_id === undefined || o.marketId === p.market_id
  const selected: Order[] = []
  const notFound: number[] = []
  if (p.by === 'Ids') {
    const ids = p.order_ids!
    const count = Math.min(ids.length, ORDER_LIMITS.massCancelIdsMax)
    for (let i = 0; i < count; i++) {
      const order = account.orders.get(ids[i]!)
      if (order !== undefined && inMarket(order)) {
        // A repeated id is cancelled once.
        if (!selected.includes(order)) selected.push(order)
      } else if (!selected.some((o) => o.id === ids[i])) {
        notFound.push(ids[i]!)
      }
    }
  } else {
    // Collected first: cancelling changes account.orders. Bounded by LIMITS.openOrdersPerAccountMax.
    let seen = 0
    for (const order of account.orders.values()) {
      if (++seen > LIMITS.openOrdersPerAccountMax) break
      if (inMarket(order) && (p.side === undefined || order.side === p.side)) selected.push(order)
    }
  }
  for (const order of selected) cancelRestingOrder(state, account, order, 'Cancelled', events)
  events.push({
    kind: 'Core',
    sub_kind: 'MassCancelDone',
    market_id: p.market_id ?? null,
    account: account.address,
    by: p.by,
    side: p.side ?? null,
    cancelled: selected.length,
    not_found: notFound,
  })
  return OK
}
