// AmendTriggerOrder: changes an active trigger in place (docs/orders.md#trigger-orders `amended`);
// it keeps its id, its source tx hash and its place in an OCO pair. A new trigger price must not
// fire at the current mark.
import type { AmendTriggerOrderPayload } from '../../wire/actions/triggers.ts'
import type { ActionContext, Outcome } from '../core/action-context.ts'
import { reject } from '../core/reasons.ts'
import { checkExpiry, checkNotFiring, decodeLots, decodeOptionalTicks, isUnits } from './trigger-decode.ts'
import { triggerAmended } from './trigger-events.ts'
import { changeTrigger } from './trigger-store.ts'

/** Validates in precedence order, then changes the trigger and emits TriggerAmended with its new details. */
export function amendTriggerOrder(ctx: ActionContext, p: AmendTriggerOrderPayload): Outcome {
  const { state, account } = ctx
  const market = state.markets.get(p.market_id)
  if (market === undefined) return reject('MarketNotFound', `market ${p.market_id} does not exist`)
  const t = state.triggers.triggers.get(p.trigger_id)
  if (t === undefined || t.owner !== account.address || t.marketId !== market.marketId) {
    return reject('TriggerNotFound', `trigger ${p.trigger_id} is not an active trigger of ${account.address} in ${market.symbol}`)
  }
  const trigger = decodeOptionalTicks(p.trigger_price, market, 'trigger_price')
  if (!isUnits(trigger)) return trigger
  const limit = decodeOptionalTicks(p.limit_price, market, 'limit_price')
  if (!isUnits(limit)) return limit
  const qty = p.qty === undefined ? undefined : decodeLots(p.qty, market, 'qty')
  if (!isUnits(qty)) return qty
  if (trigger === undefined && limit === undefined && qty === undefined && p.tif === undefined && p.expires_at_ms === undefined) {
    return reject('InvalidTriggerOrder', 'nothing to amend: give trigger_price, qty, limit_price, tif or expires_at_ms')
  }
  if (t.orderType === 'market' && (limit !== undefined || p.tif !== undefined)) {
    return reject('InvalidTriggerOrder', 'a market trigger takes no limit_price or tif (it fires as an IOC sweep)')
  }
  if (qty !== undefined && qty < market.minOrderLots)
    return reject('BelowMinOrderSize', `qty below the minimum of ${market.minOrderLots} lots`)
  if (p.expires_at_ms !== undefined) {
    const expiry = checkExpiry(p.expires_at_ms, ctx.timestampMs)
    if (expiry !== undefined) return expiry
  }
  if (trigger !== undefined) {
    const firing = checkNotFiring(t.direction, trigger, market)
    if (firing !== undefined) return firing
  }

  // After this point the amend must succeed.
  changeTrigger(state, t, { triggerTicks: trigger, qtyLots: qty, limitTicks: limit, tif: p.tif, expiresAtMs: p.expires_at_ms })
  ctx.events.push(triggerAmended(t))
  return { ok: true }
}
