// Market lifecycle (docs/markets.md#lifecycle): Created -> Active <-> Halted -> DelistPending ->
// Delisted, plus the separate emergency_halt flag. This file holds the Admin transitions
// (CancelMarket, HaltMarket, ResumeMarket, RequestDelist, SetEmergencyHalt); the tradability rule
// placeOrder asks is tradable.ts; ActivateMarket is in markets.ts, CompleteDelist in delist.ts, the
// quote-driven halt and resume in oracle.ts. A refused transition is InvalidLifecycleTransition
// naming both states.
import type { MarketOnlyPayload, SetEmergencyHaltPayload } from '../../wire/actions.ts'
import { describeRef, type MarketRef } from '../../wire/symbols.ts'
import type { EventSink } from '../core/events.ts'
import { type Rejection, reject } from '../core/reasons.ts'
import type { Account, ChainState, HaltReason, Lifecycle, Market } from '../core/types.ts'
import { markLeaf } from '../state/state-root.ts'
import { cancelMarketTriggers } from '../triggers/triggers.ts'
import { resolveMarketRef } from './market-refs.ts'
import type { MarketOutcome } from './tradable.ts'

/**
 * The market a management action addresses (market_id over symbol,
 * docs/markets.md#amendmarketconfig): MarketNotFound when it does not resolve, MarketDelisted when
 * it is sealed (only reads reach a Delisted market).
 */
export function findManagedMarket(state: ChainState, ref: MarketRef): { readonly ok: true; readonly market: Market } | Rejection {
  const market = resolveMarketRef(state, ref)
  if (market === undefined) return reject('MarketNotFound', `market not found: ${describeRef(ref)}`)
  if (market.lifecycle === 'Delisted')
    return reject('MarketDelisted', `${market.symbol} (market ${market.marketId}) is Delisted and sealed`)
  return { ok: true, market }
}

/** Moves a market to a new lifecycle state and reports it with MarketLifecycleChanged. */
export function changeLifecycle(
  state: ChainState,
  market: Market,
  to: Lifecycle,
  haltReason: HaltReason,
  account: string,
  events: EventSink,
): void {
  const from = market.lifecycle
  market.lifecycle = to
  market.haltReason = to === 'Halted' ? haltReason : null
  markLeaf(state, market)
  events.push({
    kind: 'Ops',
    sub_kind: 'MarketLifecycleChanged',
    market_id: market.marketId,
    account,
    from,
    to,
    halt_reason: market.haltReason,
  })
}

const refused = (market: Market, action: string, why: string): Rejection =>
  reject(
    'InvalidLifecycleTransition',
    `${action} refused: ${market.symbol} is ${market.lifecycle}${market.lifecycle === 'Halted' ? ` (${market.haltReason ?? 'null'})` : ''}; ${why}`,
  )

/** CancelMarket (master-only): a Created market goes straight to Delisted, with no DelistPending phase. */
export function cancelMarket(state: ChainState, admin: Account, p: MarketOnlyPayload, events: EventSink): MarketOutcome {
  const found = findManagedMarket(state, p)
  if (!found.ok) return found
  const market = found.market
  if (market.lifecycle !== 'Created') return refused(market, 'CancelMarket', 'only a Created market can be cancelled (delist it instead)')
  // After this point the cancellation must succeed. A Created market never traded: no orders or
  // positions; any trigger orders of it go (triggers.ts).
  cancelMarketTriggers(state, market.marketId, events)
  events.push({ kind: 'Ops', sub_kind: 'MarketCancelled', market_id: market.marketId, account: admin.address, symbol: market.symbol })
  changeLifecycle(state, market, 'Delisted', null, admin.address, events)
  return { ok: true, marketId: market.marketId }
}

/**
 * HaltMarket: Active -> Halted(Admin). A market halted for a stale quote (or with a null reason)
 * may be re-halted as Admin, so a fresh quote no longer resumes it.
 */
export function haltMarket(state: ChainState, admin: Account, p: MarketOnlyPayload, events: EventSink): MarketOutcome {
  const found = findManagedMarket(state, p)
  if (!found.ok) return found
  const market = found.market
  const haltable = market.lifecycle === 'Active' || (market.lifecycle === 'Halted' && market.haltReason !== 'Admin')
  if (!haltable) return refused(market, 'HaltMarket', 'only an Active market (or one halted for a stale quote) can be halted')
  // After this point the halt must succeed.
  changeLifecycle(state, market, 'Halted', 'Admin', admin.address, events)
  return { ok: true, marketId: market.marketId }
}

/**
 * ResumeMarket: Halted (any reason) -> Active, tradable at once. An external-peg market whose
 * quote is stale halts again (QuoteStale) at the end of the block.
 */
export function resumeMarket(state: ChainState, admin: Account, p: MarketOnlyPayload, events: EventSink): MarketOutcome {
  const found = findManagedMarket(state, p)
  if (!found.ok) return found
  const market = found.market
  if (market.lifecycle !== 'Halted') return refused(market, 'ResumeMarket', 'only a Halted market can be resumed')
  // After this point the resume must succeed.
  changeLifecycle(state, market, 'Active', null, admin.address, events)
  return { ok: true, marketId: market.marketId }
}

/**
 * RequestDelist: Active or Halted -> DelistPending, where only reduce-only orders, cancels and
 * liquidations remain. Refused for Created markets (CancelMarket withdraws those). The request
 * time is kept for audit only: CompleteDelist may follow at any time.
 */
export function requestDelist(
  state: ChainState,
  admin: Account,
  p: MarketOnlyPayload,
  timestampMs: number,
  events: EventSink,
): MarketOutcome {
  const found = findManagedMarket(state, p)
  if (!found.ok) return found
  const market = found.market
  if (market.lifecycle === 'Created')
    return refused(market, 'RequestDelist', 'normal delisting is refused for Created markets (use CancelMarket)')
  if (market.lifecycle === 'DelistPending') return refused(market, 'RequestDelist', 'delisting was already requested')
  // After this point the request must succeed.
  market.delistRequestedAtMs = timestampMs
  changeLifecycle(state, market, 'DelistPending', null, admin.address, events)
  return { ok: true, marketId: market.marketId }
}

/** SetEmergencyHalt: sets or clears the flag on a live market; setting it to its value is a no-op that still reports. */
export function setEmergencyHalt(state: ChainState, admin: Account, p: SetEmergencyHaltPayload, events: EventSink): MarketOutcome {
  const found = findManagedMarket(state, p)
  if (!found.ok) return found
  const market = found.market
  // After this point the change must succeed.
  const was = market.emergencyHalt
  market.emergencyHalt = p.halted
  markLeaf(state, market)
  events.push({
    kind: 'Ops',
    sub_kind: 'EmergencyHaltChanged',
    market_id: market.marketId,
    account: admin.address,
    halted: p.halted,
    was_halted: was,
  })
  return { ok: true, marketId: market.marketId }
}
