// CancelOrder by order_id or client_order_id.
import type { CancelOrderPayload } from '../../wire/actions.ts'
import type { EventSink } from '../core/events.ts'
import { type Rejection, reject } from '../core/reasons.ts'
import type { Account, ChainState } from '../core/types.ts'
import { cancelRestingOrder } from './order-ops.ts'

/**
 * Cancels one of account's resting orders in the payload's market, by order_id or else by
 * client_order_id: undefined when cancelled, else why not (nothing changed then).
 */
export function cancelOrder(state: ChainState, account: Account, p: CancelOrderPayload, events: EventSink): Rejection | undefined {
  const market = state.markets.get(p.market_id)
  if (market === undefined) return reject('MarketNotFound', `market ${p.market_id} does not exist`)
  const orderId =
    p.order_id ?? (p.client_order_id === undefined ? undefined : account.ordersByClientId.getIn(p.market_id, p.client_order_id))
  const order = orderId === undefined ? undefined : account.orders.get(orderId)
  if (order === undefined || order.marketId !== market.marketId) {
    const what = p.order_id !== undefined ? `order ${p.order_id}` : `client_order_id ${p.client_order_id}`
    return reject('OrderNotFound', `${what} is not an open order of ${account.address} in ${market.symbol}`)
  }
  // After this point the cancel must succeed.
  cancelRestingOrder(state, account, order, 'Cancelled', events)
  return undefined
}
