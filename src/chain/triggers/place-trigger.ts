// PlaceTriggerOrder: a stop / take-profit that waits for the market's mark to cross its trigger
// price (docs/orders.md#trigger-orders `placed`). No margin is held while it waits: the promoted
// order is checked like any order when the trigger fires, and a failure there is a `fire_failed`
// event.
//
// A trigger that would fire at the current mark is rejected (TriggerWouldFireImmediately): its
// owner can place the order itself, and a trigger must never fire in the block that placed it
// without the mark having moved. A reduce-only trigger may be placed without a position (a stop for
// an entry order that has not filled yet); it is cancelled OnFailure when a fill leaves its side
// nothing to reduce (triggers.ts).
import { type ActionContext, OK, type Outcome, type PlaceTriggerOrderInput } from '../core/action-context.ts'
import { reject } from '../core/reasons.ts'
import { checkTradable } from '../markets/tradable.ts'
import { checkExpiry, checkNotFiring, decodeLots, decodeOptionalTicks, decodeTicks, isUnits, triggerTif } from './trigger-decode.ts'
import { triggerPlaced } from './trigger-events.ts'
import { createTrigger } from './trigger-store.ts'
import { TRIGGER_LIMITS } from './trigger-types.ts'

/** Validates in precedence order, then adds the trigger and emits TriggerPlaced. */
export function placeTriggerOrder(ctx: ActionContext, p: PlaceTriggerOrderInput): Outcome {
  const { state, account } = ctx
  const market = state.markets.get(p.market_id)
  if (market === undefined) return reject('MarketNotFound', `market ${p.market_id} does not exist`)
  const trigger = decodeTicks(p.trigger_price, market, 'trigger_price', p.edge_trigger_price)
  if (!isUnits(trigger)) return trigger
  const limit = decodeOptionalTicks(p.limit_price, market, 'limit_price', p.edge_limit_price)
  if (!isUnits(limit)) return limit
  const qty = decodeLots(p.qty, market, 'qty', p.edge_qty)
  if (!isUnits(qty)) return qty
  const tradable = checkTradable(market, p.reduce_only)
  if (!tradable.ok) return tradable
  const tif = triggerTif(p.order_type, limit !== undefined, p.tif)
  if (!tif.ok) return tif
  if (qty < market.minOrderLots) return reject('BelowMinOrderSize', `qty below the minimum of ${market.minOrderLots} lots`)
  const expiresAtMs = p.expires_at_ms ?? null
  const expiry = checkExpiry(expiresAtMs, ctx.timestampMs)
  if (expiry !== undefined) return expiry
  const mine = state.triggers.accounts.get(account.address)
  if (p.client_order_id !== undefined && mine?.triggersByClientId.hasIn(market.marketId, p.client_order_id)) {
    return reject('DuplicateClientOrderId', `client_order_id ${p.client_order_id} is already an active trigger in ${market.symbol}`)
  }
  if ((mine?.triggers.size ?? 0) >= TRIGGER_LIMITS.triggersPerAccountMax) {
    return reject('TooManyTriggers', `at most ${TRIGGER_LIMITS.triggersPerAccountMax} active triggers per account`)
  }
  const firing = checkNotFiring(p.trigger_direction, trigger, market)
  if (firing !== undefined) return firing

  // After this point the trigger is placed.
  const t = createTrigger(state, {
    owner: account.address,
    marketId: market.marketId,
    side: p.side,
    qtyLots: qty,
    triggerTicks: trigger,
    direction: p.trigger_direction,
    orderType: p.order_type,
    limitTicks: limit ?? null,
    tif: tif.value,
    reduceOnly: p.reduce_only,
    clientOrderId: p.client_order_id,
    expiresAtMs,
    txHash: ctx.txHash,
    placedHeight: ctx.height,
    pairId: null,
  })
  ctx.events.push(triggerPlaced(t))
  return OK
}
