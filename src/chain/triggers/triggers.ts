// Trigger evaluation (docs/orders.md#trigger-orders): the block hooks that expire, fire and clean
// up triggers, and the market-wide cancel the market lifecycle calls.
//
// Begin of block: triggers whose expires_at_ms is at or before the block time are removed
// (`expired`), earliest first, at most TRIGGER_LIMITS.triggersExpiredPerBlockMax per block.
//
// End of block, after the marks are updated (END_BLOCK_HOOKS order):
//  1. Order lifecycle: the block's OrderDone / OrderExpired events of orders an OCO pair watches
//     resolve or arm their pairs (oco.ts), and fills of accounts with reduce-only triggers are
//     noted. The scan reads events that were already emitted instead of hooking the matching path,
//     and is skipped while no pair and no reduce-only trigger exists.
//  2. Reduce-only triggers whose side has nothing left to reduce after a fill (the position went
//     flat or flipped) are cancelled with reason OnFailure: they could only fail when fired.
//  3. Firing: per market, each of the two ladders is read from its end while the mark is at or
//     beyond the trigger price, so evaluation touches only triggers that fire (and one more per
//     ladder). Every market with triggers is looked at, not only markets whose mark moved: it costs
//     two array reads per market, covers marks set by any path (trades, oracle quotes), and lets a
//     backlog cut at TRIGGER_LIMITS.triggersFiredPerBlockMax fire in the next block. Markets are
//     gathered in market order; the gathered triggers fire in trigger id order. Markets that are not
//     tradable (halted, created, delisted) keep their triggers until they trade again.
//     Firing removes the trigger and promotes it through placeOrder with the trigger's id and its
//     placing envelope's tx hash as the order's source, so its fills carry taker_source_trigger_id
//     and taker_source_tx_hash (and the maker_* fields when a promoted limit order rests and is hit
//     later). A `market` trigger becomes an IOC at the mark moved marketSlippageBps against the
//     trader (a Bid at floor(mark x 1.1), an Ask at ceil(mark x 0.9)); a `limit` trigger becomes an
//     order at its limit price and tif. A rejected promotion is `fire_failed` with the reason.
//     The trigger's client_order_id passes to the order (so it may fail DuplicateClientOrderId).
//  4. Steps 1 and 2 again over the events steps 1-3 produced (fills of fired triggers, limit legs
//     that filled at once).
// Fills of fired triggers do not move this block's marks (updateMarks ran before): a trigger cannot
// set off another within the block; the next block that trades moves the mark.
import type { BlockContext, BlockHook } from '../core/action-context.ts'
import type { ChainEvent, EventSink } from '../core/events.ts'
import { BPS_DENOMINATOR, type ChainState, type Market, type Side } from '../core/types.ts'
import { checkTradable } from '../markets/tradable.ts'
import { placeOrder } from '../orders/place-order.ts'
import { closableLots } from '../orders/reduce-only.ts'
import { closePair, onPairOrderEnded } from './oco.ts'
import { triggerActivated, triggerCancelled, triggerExpired, triggerFireFailed } from './trigger-events.ts'
import type { TriggerLadder } from './trigger-ladder.ts'
import { removeTrigger } from './trigger-store.ts'
import { TRIGGER_LIMITS, type TriggerOrder } from './trigger-types.ts'

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id

/** The limit of a fired `market` trigger: the mark moved marketSlippageBps against the trader, rounded toward the mark. */
export function protectiveLimit(markTicks: number, side: Side): number {
  const mark = BigInt(markTicks)
  const bps = BigInt(TRIGGER_LIMITS.marketSlippageBps)
  if (side === 'Bid') {
    const up = (mark * (BPS_DENOMINATOR + bps)) / BPS_DENOMINATOR // floor: toward the mark
    return Number(up > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(Number.MAX_SAFE_INTEGER) : up)
  }
  const num = mark * (BPS_DENOMINATOR - bps)
  const down = (num + BPS_DENOMINATOR - 1n) / BPS_DENOMINATOR // ceil: toward the mark
  return Math.max(1, Number(down))
}

/** Removes an expired trigger (`expired`); the stop leg of a pair closes it TriggerExpired. */
function expireTrigger(state: ChainState, t: TriggerOrder, events: EventSink): void {
  removeTrigger(state, t)
  events.push(triggerExpired(t))
  const pair = t.pairId === null ? undefined : state.triggers.pairs.get(t.pairId)
  if (pair !== undefined) closePair(state, pair, 'TriggerExpired', events)
}

/** Begin-of-block hook: removes the triggers whose expiry has come, earliest first. */
export const expireTriggersHook: BlockHook = (ctx) => {
  const ladder = ctx.state.triggers.expiry
  for (let i = 0; i < TRIGGER_LIMITS.triggersExpiredPerBlockMax; i++) {
    const t = ladder.fromEnd(0)
    if (t === undefined || t.expiresAtMs === null || t.expiresAtMs > ctx.timestampMs) break
    expireTrigger(ctx.state, t, ctx.events)
  }
}

/**
 * Fires a trigger: removes it, closes its OCO pair (TriggerFired: the limit leg is cancelled
 * first, so its margin is free for the promoted order), and places the promoted order. Events:
 * TriggerActivated (or TriggerFireFailed), the pair's, then the order's.
 */
function fireTrigger(ctx: BlockContext, t: TriggerOrder, market: Market): void {
  const state = ctx.state
  removeTrigger(state, t)
  const closing: ChainEvent[] = []
  const pair = t.pairId === null ? undefined : state.triggers.pairs.get(t.pairId)
  if (pair !== undefined) closePair(state, pair, 'TriggerFired', closing)
  const priceTicks = t.orderType === 'market' ? protectiveLimit(market.markTicks, t.side) : t.limitTicks!
  const account = state.accounts.get(t.owner)!
  const orderEvents: ChainEvent[] = []
  const placed = placeOrder(
    state,
    account,
    {
      marketId: t.marketId,
      side: t.side,
      priceTicks,
      qtyLots: t.qtyLots,
      tif: t.tif,
      reduceOnly: t.reduceOnly,
      clientOrderId: t.clientOrderId,
      expiresAtMs: undefined,
    },
    { height: ctx.height, timestampMs: ctx.timestampMs, txHash: t.txHash, sourceTriggerId: t.id },
    orderEvents,
  )
  ctx.events.push(
    typeof placed === 'number'
      ? triggerActivated(t, placed, market.markTicks, priceTicks)
      : triggerFireFailed(t, placed.reason, placed.message),
  )
  for (const e of closing) ctx.events.push(e)
  for (const e of orderEvents) ctx.events.push(e)
}

/** Appends to due the triggers of a ladder that fire at mark, from its end, while room is left. */
function gatherDue(ladder: TriggerLadder<TriggerOrder>, markTicks: number, due: TriggerOrder[]): void {
  for (let i = 0; due.length < TRIGGER_LIMITS.triggersFiredPerBlockMax; i++) {
    const t = ladder.fromEnd(i)
    if (t === undefined) return
    const fires = t.direction === 'Above' ? markTicks >= t.triggerTicks : markTicks <= t.triggerTicks
    if (!fires) return
    due.push(t)
  }
}

/** Step 3: fires the triggers the marks have crossed, at most triggersFiredPerBlockMax. */
function fireDueTriggers(ctx: BlockContext): void {
  const state = ctx.state
  const ts = state.triggers
  if (ts.triggers.size === 0) return
  const due: TriggerOrder[] = []
  // Bounded by the number of markets.
  for (const market of state.markets.values()) {
    if (due.length >= TRIGGER_LIMITS.triggersFiredPerBlockMax) break
    const mt = ts.markets.get(market.marketId)
    if (mt === undefined || (mt.above.size === 0 && mt.below.size === 0)) continue
    if (market.markTicks <= 0 || !checkTradable(market, true).ok) continue
    gatherDue(mt.above, market.markTicks, due)
    gatherDue(mt.below, market.markTicks, due)
  }
  due.sort(byId)
  for (const t of due) {
    // An earlier firing may have closed this trigger's pair, and the trigger with it.
    if (ts.triggers.get(t.id) !== t) continue
    if (t.expiresAtMs !== null && t.expiresAtMs <= ctx.timestampMs) {
      expireTrigger(state, t, ctx.events)
      continue
    }
    fireTrigger(ctx, t, state.markets.get(t.marketId)!)
  }
}

/** Steps 1, 2 and 4: what the block's events mean for pairs and reduce-only triggers. */
class LifecycleWatch {
  /** Accounts with triggers that traded in a market, in the order first noted. */
  private readonly touched: { readonly address: string; readonly marketId: number }[] = []
  /** The markets noted per address (a handful at most), so a pair is noted once without building a key. */
  private readonly touchedMarkets = new Map<string, number[]>()
  /** How far into ctx.events (events not yet in blockEvents, normally only this hook's) this watch has read. */
  private cursor = 0

  constructor(private readonly ctx: BlockContext) {}

  /** Whether any event can matter: a watched order or a reduce-only trigger exists. */
  private active(): boolean {
    const ts = this.ctx.state.triggers
    return ts.pairByOrder.size > 0 || ts.reduceOnlyCount > 0
  }

  /** Reads the events of the block before this hook. Bounded by their number. */
  scanBlock(): void {
    if (!this.active()) return
    if (this.ctx.state.triggers.pairByOrder.size === 0) {
      // No order is watched (and reading fills watches none): only the fills can matter, and
      // walking their parties alone spares a pass over every event of the block.
      const parties = this.ctx.blockFillParties
      for (let i = 0; i + 2 < parties.length; i += 3)
        this.observeFill(parties[i] as string, parties[i + 1] as string, parties[i + 2] as number)
      return
    }
    const events = this.ctx.blockEvents
    for (let i = 0; i < events.length; i++) this.observe(events[i]!)
  }

  /**
   * Reads the events this hook has emitted since the last drain, including the ones reading them
   * emits. Bounded: each event is read once, and reading adds events only by closing or arming a
   * pair, which happens once per pair.
   */
  drain(): void {
    const events = this.ctx.events
    if (!this.active()) {
      this.cursor = events.length
      return
    }
    for (; this.cursor < events.length; this.cursor++) this.observe(events[this.cursor]!)
  }

  private observe(e: ChainEvent): void {
    const state = this.ctx.state
    switch (e.sub_kind) {
      case 'OrderDone':
        if (state.triggers.pairByOrder.has(e.order_id))
          onPairOrderEnded(state, e.order_id, e.reason === 'Filled', this.ctx, this.ctx.events)
        return
      case 'OrderExpired':
        if (state.triggers.pairByOrder.has(e.order_id)) onPairOrderEnded(state, e.order_id, false, this.ctx, this.ctx.events)
        return
      case 'Filled':
        this.observeFill(e.taker, e.maker, e.market_id)
        return
      default:
        return
    }
  }

  /** A fill matters to the reduce-only triggers of its two parties. */
  private observeFill(taker: string, maker: string, marketId: number): void {
    if (this.ctx.state.triggers.reduceOnlyCount === 0) return
    this.note(taker, marketId)
    this.note(maker, marketId)
  }

  private note(address: string, marketId: number): void {
    // Most fills repeat a pair already noted: that check comes first, on the small touched index.
    const markets = this.touchedMarkets.get(address)
    if (markets?.includes(marketId)) return
    if ((this.ctx.state.triggers.accounts.get(address)?.triggers.size ?? 0) === 0) return
    if (markets === undefined) this.touchedMarkets.set(address, [marketId])
    else markets.push(marketId)
    this.touched.push({ address, marketId })
  }

  /**
   * Step 2: cancels OnFailure the reduce-only triggers of noted accounts whose side has nothing to
   * reduce now. Bounded by the noted accounts times TRIGGER_LIMITS.triggersPerAccountMax.
   */
  settleReduceOnly(): void {
    const state = this.ctx.state
    for (const { address, marketId } of this.touched) {
      const mine = state.triggers.accounts.get(address)
      if (mine === undefined || mine.reduceOnly.size === 0) continue
      const size = state.accounts.get(address)?.positions.get(marketId)?.sizeLots ?? 0
      const failing: TriggerOrder[] = []
      // Only the reduce-only triggers (sorted by id below, so the index's order does not matter).
      for (const t of mine.reduceOnly.values()) {
        if (t.marketId === marketId && closableLots(size, t.side) === 0) failing.push(t)
      }
      failing.sort(byId)
      for (const t of failing) {
        if (state.triggers.triggers.get(t.id) !== t) continue
        removeTrigger(state, t)
        this.ctx.events.push(triggerCancelled(t, 'OnFailure'))
        const pair = t.pairId === null ? undefined : state.triggers.pairs.get(t.pairId)
        if (pair !== undefined) closePair(state, pair, 'PairCancelled', this.ctx.events)
      }
    }
    this.touched.length = 0
    this.touchedMarkets.clear()
  }
}

/** End-of-block hook: lifecycle, reduce-only cleanup, firing, then lifecycle of what fired. */
export const triggersEndBlockHook: BlockHook = (ctx) => {
  const ts = ctx.state.triggers
  if (ts.triggers.size === 0 && ts.pairs.size === 0) return
  const watch = new LifecycleWatch(ctx)
  watch.scanBlock()
  watch.drain()
  watch.settleReduceOnly()
  fireDueTriggers(ctx)
  watch.drain()
  watch.settleReduceOnly()
}

/**
 * Cancels every trigger and OCO pair of a market with reason MarketDelisted (the market lifecycle
 * calls it on CompleteDelist and CancelMarket). Pairs go first, in id order: the stop leg is
 * cancelled MarketDelisted, the limit leg (if still resting) with OrderDone Cancelled, and the pair
 * resolves PairCancelled; then the other triggers, in id order.
 */
export function cancelMarketTriggers(state: ChainState, marketId: number, events: EventSink): void {
  const ts = state.triggers
  const mt = ts.markets.get(marketId)
  if (mt === undefined) return
  const pairs = [...mt.pairs.values()].sort(byId)
  for (const pair of pairs) {
    const stop = pair.stopTriggerId === null ? undefined : ts.triggers.get(pair.stopTriggerId)
    if (stop !== undefined) {
      removeTrigger(state, stop)
      events.push(triggerCancelled(stop, 'MarketDelisted'))
    }
    closePair(state, pair, 'PairCancelled', events)
  }
  const rest = [...mt.above.toArray(), ...mt.below.toArray()].sort(byId)
  for (const t of rest) {
    removeTrigger(state, t)
    events.push(triggerCancelled(t, 'MarketDelisted'))
  }
}
