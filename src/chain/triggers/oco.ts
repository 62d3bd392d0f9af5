// OCO pairs and brackets (docs/orders.md#oco-pairs-and-brackets: `oco_placed`, `oco_resolved`). A
// pair is a resting limit leg (an order, Gtc) and a stop leg (a trigger) of the same side and size;
// when one resolves the other is cancelled and the pair closes:
//   - the limit leg fully fills             -> stop leg cancelled (OcoSibling), OrderResolved;
//   - the limit leg ends any other way (its owner cancels it, self-trade, expiry, replace, ...)
//                                           -> stop leg cancelled (OcoSibling), PairCancelled;
//   - the stop leg fires (or fails to)      -> limit leg cancelled, TriggerFired;
//   - the stop leg expires                  -> limit leg cancelled, TriggerExpired;
//   - the owner cancels the stop leg        -> limit leg cancelled, PairCancelled;
//   - the stop leg is cancelled OnFailure or MarketDelisted -> limit leg cancelled, PairCancelled;
//   - CancelOcoPair                          -> both legs cancelled (stop: ByOwner), ManualCancel.
// A partial fill of the limit leg leaves the pair open; the stop leg keeps its size (a reduce-only
// stop is clamped to the position when it fires).
//
// Brackets: with parent_order_id (a resting order of the account, on the other side) the pair
// waits with no legs. When the parent fully fills, the legs are placed (armed); when the parent
// ends any other way (cancelled, expired, or only partly filled and then cancelled) the bracket
// is cancelled (PairCancelled). Arming that fails (the limit leg rejected, the trigger limit
// reached) closes the pair as PairCancelled with the refusal in `failure`.
//
// Order lifecycle is observed after the fact, from the block's OrderDone / OrderExpired events of
// the orders in TriggerState.pairByOrder (triggers.ts), not by hooking the matching path.
import type { CancelOcoPairPayload, PlaceOcoPairPayload } from '../../wire/actions/triggers.ts'
import type { ActionContext, Outcome } from '../core/action-context.ts'
import type { ChainEvent, EventSink } from '../core/events.ts'
import { type RejectReason, reject } from '../core/reasons.ts'
import type { ChainState } from '../core/types.ts'
import { checkTradable } from '../markets/tradable.ts'
import { cancelRestingOrder } from '../orders/order-ops.ts'
import type { DecodedOrder } from '../orders/order-types.ts'
import { placeOrder } from '../orders/place-order.ts'
import { checkExpiry, checkNotFiring, decodeLots, decodeOptionalTicks, decodeTicks, isUnits, triggerTif } from './trigger-decode.ts'
import { ocoPlaced, ocoResolved, triggerCancelled, triggerPlaced } from './trigger-events.ts'
import { armPairLegs, createPair, createTrigger, removePair, removeTrigger } from './trigger-store.ts'
import {
  type OcoPair,
  type OcoResolveReason,
  type StopSpec,
  TRIGGER_LIMITS,
  type TriggerCancelReason,
  type TriggerOrder,
} from './trigger-types.ts'

/** The block an order is placed in, for legs placed outside an envelope (bracket arming). */
export interface BlockTime {
  readonly height: number
  readonly timestampMs: number
}

/** Validates in precedence order, then places the limit leg and the stop leg (or a waiting bracket). */
export function placeOcoPair(ctx: ActionContext, p: PlaceOcoPairPayload): Outcome {
  const { state, account } = ctx
  const market = state.markets.get(p.market_id)
  if (market === undefined) return reject('MarketNotFound', `market ${p.market_id} does not exist`)
  const limit = decodeTicks(p.limit_price, market, 'limit_price')
  if (!isUnits(limit)) return limit
  const stopTrigger = decodeTicks(p.stop.trigger_price, market, 'stop.trigger_price')
  if (!isUnits(stopTrigger)) return stopTrigger
  const stopLimit = decodeOptionalTicks(p.stop.limit_price, market, 'stop.limit_price')
  if (!isUnits(stopLimit)) return stopLimit
  const qty = decodeLots(p.qty, market, 'qty')
  if (!isUnits(qty)) return qty
  const tradable = checkTradable(market, p.reduce_only)
  if (!tradable.ok) return tradable
  const stopTif = triggerTif(p.stop.order_type, stopLimit !== undefined, undefined)
  if (!stopTif.ok) return stopTif
  if (qty < market.minOrderLots) return reject('BelowMinOrderSize', `qty below the minimum of ${market.minOrderLots} lots`)
  const stopExpiresAtMs = p.stop.expires_at_ms ?? null
  const expiry = checkExpiry(stopExpiresAtMs, ctx.timestampMs)
  if (expiry !== undefined) return expiry
  const mine = state.triggers.accounts.get(account.address)
  if (mine?.pairsByClientId.has(p.client_pair_id))
    return reject('DuplicateClientPairId', `client_pair_id ${p.client_pair_id} is already an open pair`)
  if ((mine?.pairs.size ?? 0) >= TRIGGER_LIMITS.ocoPairsPerAccountMax)
    return reject('TooManyOcoPairs', `at most ${TRIGGER_LIMITS.ocoPairsPerAccountMax} open OCO pairs per account`)
  const stop: StopSpec = {
    triggerTicks: stopTrigger,
    direction: p.stop.trigger_direction,
    orderType: p.stop.order_type,
    limitTicks: stopLimit ?? null,
    expiresAtMs: stopExpiresAtMs,
  }
  const fields = {
    owner: account.address,
    marketId: market.marketId,
    side: p.side,
    qtyLots: qty,
    limitTicks: limit,
    stop,
    reduceOnly: p.reduce_only,
    clientPairId: p.client_pair_id,
    txHash: ctx.txHash,
    placedHeight: ctx.height,
    limitOrderId: null,
    stopTriggerId: null,
  }

  if (p.parent_order_id !== undefined) {
    const parent = account.orders.get(p.parent_order_id)
    if (parent === undefined || parent.marketId !== market.marketId) {
      return reject('OrderNotFound', `parent order ${p.parent_order_id} is not an open order of ${account.address} in ${market.symbol}`)
    }
    if (state.triggers.pairByOrder.has(parent.id)) return reject('InvalidOcoPair', `order ${parent.id} already belongs to an OCO pair`)
    if (parent.side === p.side)
      return reject('InvalidOcoPair', `a bracket's legs close the parent: they must be on the other side of the ${parent.side} parent`)
    // After this point the bracket is placed; its legs wait for the parent to fill.
    const pair = createPair(state, { ...fields, parentOrderId: parent.id })
    ctx.events.push(ocoPlaced(pair))
    return { ok: true }
  }

  if ((mine?.triggers.size ?? 0) >= TRIGGER_LIMITS.triggersPerAccountMax) {
    return reject('TooManyTriggers', `at most ${TRIGGER_LIMITS.triggersPerAccountMax} active triggers per account`)
  }
  const firing = checkNotFiring(stop.direction, stop.triggerTicks, market)
  if (firing !== undefined) return firing
  // The limit leg is the last check: placeOrder either rejects with nothing changed or places it.
  const legEvents: ChainEvent[] = []
  const placed = placeOrder(
    state,
    account,
    limitLeg(fields),
    { height: ctx.height, timestampMs: ctx.timestampMs, txHash: ctx.txHash, sourceTriggerId: null },
    legEvents,
  )
  if (typeof placed !== 'number') return placed

  // After this point the pair is placed.
  const pair = createPair(state, { ...fields, parentOrderId: null })
  const t = createTrigger(state, stopLeg(pair, stopTif.value))
  armPairLegs(state, pair, placed, t.id)
  ctx.events.push(ocoPlaced(pair), triggerPlaced(t))
  for (const e of legEvents) ctx.events.push(e)
  return { ok: true }
}

/** The limit leg as an order: Gtc at the pair's limit price. */
function limitLeg(p: Pick<OcoPair, 'marketId' | 'side' | 'limitTicks' | 'qtyLots' | 'reduceOnly'>): DecodedOrder {
  return {
    marketId: p.marketId,
    side: p.side,
    priceTicks: p.limitTicks,
    qtyLots: p.qtyLots,
    tif: 'Gtc',
    reduceOnly: p.reduceOnly,
    clientOrderId: undefined,
    expiresAtMs: undefined,
  }
}

/** The stop leg's trigger fields; its source tx hash is the pair's envelope. */
function stopLeg(pair: OcoPair, tif: TriggerOrder['tif']) {
  return {
    owner: pair.owner,
    marketId: pair.marketId,
    side: pair.side,
    qtyLots: pair.qtyLots,
    triggerTicks: pair.stop.triggerTicks,
    direction: pair.stop.direction,
    orderType: pair.stop.orderType,
    limitTicks: pair.stop.limitTicks,
    tif,
    reduceOnly: pair.reduceOnly,
    clientOrderId: undefined,
    expiresAtMs: pair.stop.expiresAtMs,
    txHash: pair.txHash,
    placedHeight: pair.placedHeight,
    pairId: pair.id,
  }
}

/** CancelOcoPair: both legs go (the stop leg with reason ByOwner) and the pair resolves ManualCancel. */
export function cancelOcoPair(ctx: ActionContext, p: CancelOcoPairPayload): Outcome {
  const { state, account } = ctx
  const market = state.markets.get(p.market_id)
  if (market === undefined) return reject('MarketNotFound', `market ${p.market_id} does not exist`)
  const mine = state.triggers.accounts.get(account.address)
  const pairId = p.pair_id ?? (p.client_pair_id === undefined ? undefined : mine?.pairsByClientId.get(p.client_pair_id))
  const pair = pairId === undefined ? undefined : state.triggers.pairs.get(pairId)
  if (pair === undefined || pair.owner !== account.address || pair.marketId !== market.marketId) {
    const what = p.pair_id !== undefined ? `pair ${p.pair_id}` : `client_pair_id ${p.client_pair_id}`
    return reject('OcoPairNotFound', `${what} is not an open OCO pair of ${account.address} in ${market.symbol}`)
  }
  // After this point the cancel must succeed.
  closePair(state, pair, 'ManualCancel', ctx.events, { stopReason: 'ByOwner' })
  return { ok: true }
}

/**
 * Closes a pair: cancels whichever of its legs are still live (the stop leg with stopReason,
 * default OcoSibling; the limit leg with OrderDone Cancelled), then emits OcoResolved. A caller
 * that already removed one leg (it fired, expired, filled) leaves only the other to cancel.
 */
export function closePair(
  state: ChainState,
  pair: OcoPair,
  reason: OcoResolveReason,
  events: EventSink,
  opts: { stopReason?: TriggerCancelReason; failure?: RejectReason } = {},
): void {
  removePair(state, pair)
  const stop = pair.stopTriggerId === null ? undefined : state.triggers.triggers.get(pair.stopTriggerId)
  if (stop !== undefined) {
    removeTrigger(state, stop)
    events.push(triggerCancelled(stop, opts.stopReason ?? 'OcoSibling'))
  }
  const account = state.accounts.get(pair.owner)
  const order = pair.limitOrderId === null ? undefined : account?.orders.get(pair.limitOrderId)
  if (account !== undefined && order !== undefined) cancelRestingOrder(state, account, order, 'Cancelled', events)
  events.push(ocoResolved(pair, reason, opts.failure))
}

/**
 * Reacts to the end of an order a pair watches (its limit leg, or a waiting bracket's parent):
 * `filled` says whether it ended fully filled. Returns without effect for other orders.
 */
export function onPairOrderEnded(state: ChainState, orderId: number, filled: boolean, block: BlockTime, events: EventSink): void {
  const pairId = state.triggers.pairByOrder.get(orderId)
  if (pairId === undefined) return
  const pair = state.triggers.pairs.get(pairId)!
  if (pair.limitOrderId === null) {
    if (filled) armBracket(state, pair, block, events)
    else closePair(state, pair, 'PairCancelled', events)
    return
  }
  closePair(state, pair, filled ? 'OrderResolved' : 'PairCancelled', events)
}

/** Places a bracket's legs once its parent filled; a refusal closes the pair PairCancelled. */
function armBracket(state: ChainState, pair: OcoPair, block: BlockTime, events: EventSink): void {
  const account = state.accounts.get(pair.owner)!
  const mine = state.triggers.accounts.get(pair.owner)
  if ((mine?.triggers.size ?? 0) >= TRIGGER_LIMITS.triggersPerAccountMax) {
    closePair(state, pair, 'PairCancelled', events, { failure: 'TooManyTriggers' })
    return
  }
  const legEvents: ChainEvent[] = []
  const placed = placeOrder(
    state,
    account,
    limitLeg(pair),
    { height: block.height, timestampMs: block.timestampMs, txHash: pair.txHash, sourceTriggerId: null },
    legEvents,
  )
  if (typeof placed !== 'number') {
    closePair(state, pair, 'PairCancelled', events, { failure: placed.reason })
    return
  }
  const t = createTrigger(state, stopLeg(pair, pair.stop.orderType === 'market' ? 'Ioc' : 'Gtc'))
  armPairLegs(state, pair, placed, t.id)
  events.push(triggerPlaced(t))
  for (const e of legEvents) events.push(e)
}
