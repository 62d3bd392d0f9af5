// Whether a market takes new orders (docs/markets.md#lifecycle), and the outcome of the market
// actions. Apart from the lifecycle transitions (lifecycle.ts) so that placing an order, a trigger
// or an OCO leg asks the rule without importing the transitions, which cancel a market's triggers.
import { type Rejection, reject } from '../core/reasons.ts'
import type { Market } from '../core/types.ts'

/** What a market action gives: the market it acted on, or why it was rejected. */
export type MarketOutcome = { readonly ok: true; readonly marketId: number } | Rejection

/**
 * Whether a new order may enter the market: Active markets take every order, DelistPending ones
 * only reduce-only orders; an emergency halt stops all new orders. Cancels and liquidations do not
 * ask this.
 */
export function checkTradable(market: Market, reduceOnly: boolean): { readonly ok: true } | Rejection {
  if (market.emergencyHalt) return reject('MarketNotTradable', `${market.symbol} is under emergency halt`)
  if (market.lifecycle === 'Active') return TRADABLE
  if (market.lifecycle === 'DelistPending') {
    return reduceOnly ? TRADABLE : reject('MarketNotTradable', `${market.symbol} is DelistPending: only reduce-only orders are accepted`)
  }
  const reason = market.lifecycle === 'Halted' ? ` (halt_reason ${market.haltReason ?? 'null'})` : ''
  return reject('MarketNotTradable', `${market.symbol} is ${market.lifecycle}${reason}`)
}

const TRADABLE = Object.freeze({ ok: true as const })
