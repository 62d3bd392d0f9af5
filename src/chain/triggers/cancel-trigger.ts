// CancelTriggerOrder by trigger_id or client_order_id (docs/orders.md#trigger-orders `cancelled`,
// reason ByOwner). The stop leg of an OCO pair takes its pair with it: the limit leg is cancelled
// and the pair resolves PairCancelled.
import type { CancelTriggerOrderPayload } from '../../wire/actions/triggers.ts'
import { type ActionContext, OK, type Outcome } from '../core/action-context.ts'
import { reject } from '../core/reasons.ts'
import { closePair } from './oco.ts'
import { triggerCancelled } from './trigger-events.ts'
import { removeTrigger } from './trigger-store.ts'

/** Cancels one of the account's active triggers in the payload's market; trigger_id wins over client_order_id. */
export function cancelTriggerOrder(ctx: ActionContext, p: CancelTriggerOrderPayload): Outcome {
  const { state, account } = ctx
  const market = state.markets.get(p.market_id)
  if (market === undefined) return reject('MarketNotFound', `market ${p.market_id} does not exist`)
  const mine = state.triggers.accounts.get(account.address)
  const id =
    p.trigger_id ?? (p.client_order_id === undefined ? undefined : mine?.triggersByClientId.getIn(market.marketId, p.client_order_id))
  const t = id === undefined ? undefined : state.triggers.triggers.get(id)
  if (t === undefined || t.owner !== account.address || t.marketId !== market.marketId) {
    const what = p.trigger_id !== undefined ? `trigger ${p.trigger_id}` : `client_order_id ${p.client_order_id ?? '(none given)'}`
    return reject('TriggerNotFound', `${what} is not an active trigger of ${account.address} in ${market.symbol}`)
  }
  // After this point the cancel must succeed.
  removeTrigger(state, t)
  ctx.events.push(triggerCancelled(t, 'ByOwner'))
  const pair = t.pairId === null ? undefined : state.triggers.pairs.get(t.pairId)
  if (pair !== undefined) closePair(state, pair, 'PairCancelled', ctx.events)
  return OK
}
