// Maintenance margin and liquidatability (docs/liquidation.md). Pure functions over state.
//
// - A position's maintenance requirement is ceil(notional at the mark x maintenance_margin_bps /
//   10000) (rounded against the account).
// - An account's cross part is liquidatable when its cross equity, balance + uPnL of its Cross
//   positions, is below the sum of their maintenance requirements. Margin held by resting orders
//   does not count: orders are cancelled before a liquidation and their margin is in the balance.
// - An Isolated position is liquidatable when its isolated margin + its uPnL is below its own
//   maintenance requirement; the cross part plays no role.
// - A position in a market whose mark is 0 (unknown) is never liquidatable: it has no price to be
//   closed at. Neither are the house accounts: the insurance fund (the backstop that takes
//   liquidated positions over) and Book B (the counterparty of external-peg markets, capitalized
//   off-chain and exempt from margin checks).

import { divCeil, divFloor } from '../core/math.ts'
import { type Account, BPS_DENOMINATOR, type ChainState, type Market, type Position } from '../core/types.ts'
import { BOOK_B_ADDRESS } from '../markets/external-peg.ts'
import { markNotional, unrealizedPnl } from './margin.ts'

/** Maintenance margin requirement of a position at the mark (SCALE_6). */
export function maintenanceMargin(market: Market, pos: Position): bigint {
  if (pos.sizeLots === 0) return 0n
  return divCeil(markNotional(market, pos) * BigInt(market.maintenanceMarginBps), BPS_DENOMINATOR)
}

/** Equity against maintenance: what a liquidation check compares. */
export interface Health {
  /** Cross: balance + Cross uPnL. Isolated: isolated margin + the position's uPnL. */
  readonly equity: bigint
  /** Sum of the maintenance requirements of the positions the equity backs. */
  readonly maintenance: bigint
}

/** The cross part's equity and maintenance requirement. Bounded by the account's positions. */
export function crossHealth(state: ChainState, account: Account): Health {
  let equity = account.balance
  let maintenance = 0n
  for (const pos of account.positions.values()) {
    if (pos.sizeLots === 0 || pos.marginMode !== 'Cross') continue
    const market = state.markets.get(pos.marketId)
    if (market === undefined) continue
    equity += unrealizedPnl(market, pos)
    maintenance += maintenanceMargin(market, pos)
  }
  return { equity, maintenance }
}

/** An Isolated position's own equity and maintenance requirement. */
export function isolatedHealth(market: Market, pos: Position): Health {
  return { equity: pos.isolatedMargin + unrealizedPnl(market, pos), maintenance: maintenanceMargin(market, pos) }
}

/** The health that decides whether pos can be liquidated: its own when Isolated, the cross part's when Cross. */
export function healthOf(state: ChainState, account: Account, market: Market, pos: Position): Health {
  return pos.marginMode === 'Isolated' ? isolatedHealth(market, pos) : crossHealth(state, account)
}

/** Whether an address is a house account, never liquidated: the insurance fund or Book B. */
export function isHouseAccount(state: ChainState, address: string): boolean {
  return address === state.params.insuranceFund || address === BOOK_B_ADDRESS
}

/**
 * The mark (in ticks) at which pos reaches its maintenance requirement, the other positions of
 * the cross part held at their marks; null when no such price exists (a long whose equity covers
 * it at any price). Rounded to the side where the position is liquidatable: down for a long (it is
 * liquidatable below), up for a short (above); 0 for a short liquidatable at any price.
 *
 * With q lots, notional N(P) = P q mult / div, rate m = bps / 10000, cost basis C and the backing
 * E (Isolated: isolated margin; Cross: balance + other Cross uPnL - their maintenance):
 *   long:  E + N - C = m N   =>  N = (C - E) / (1 - m)
 *   short: E + |C| - N = m N  =>  N = (|C| + E) / (1 + m)
 */
export function liquidationPriceTicks(state: ChainState, account: Account, market: Market, pos: Position): bigint | null {
  if (pos.sizeLots === 0) return null
  let backing: bigint
  if (pos.marginMode === 'Isolated') {
    backing = pos.isolatedMargin
  } else {
    backing = account.balance
    for (const other of account.positions.values()) {
      if (other === pos || other.sizeLots === 0 || other.marginMode !== 'Cross') continue
      const m = state.markets.get(other.marketId)
      if (m === undefined) continue
      backing += unrealizedPnl(m, other) - maintenanceMargin(m, other)
    }
  }
  const long = pos.sizeLots > 0
  const bps = BigInt(market.maintenanceMarginBps)
  const x = long ? pos.costBasis - backing : -pos.costBasis + backing
  // ticks = x * div * 10000 / (q * mult * (10000 -/+ bps))
  const num = x * market.notionalDivisor * BPS_DENOMINATOR
  const den = BigInt(Math.abs(pos.sizeLots)) * market.notionalMultiplier * (long ? BPS_DENOMINATOR - bps : BPS_DENOMINATOR + bps)
  if (long) return x <= 0n ? null : divFloor(num, den)
  return x <= 0n ? 0n : divCeil(num, den)
}
