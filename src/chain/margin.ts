// Cross-margin valuation of an account (spec §6.2 account fields). Pure functions over state.
import { absBig, marginOf, notionalOf } from './math.ts'
import type { Account, ChainState, Market, Position } from './types.ts'

/** Notional of a position at the mark (SCALE_6, unsigned); at mark 0, its cost basis stands in. */
export function markNotional(market: Market, pos: Position): bigint {
  if (market.markTicks === 0) return absBig(pos.costBasis)
  return notionalOf(market, market.markTicks, Math.abs(pos.sizeLots))
}

/** Unrealized PnL at the mark; a market with mark 0 counts 0 (spec §6.2). */
export function unrealizedPnl(market: Market, pos: Position): bigint {
  if (market.markTicks === 0 || pos.sizeLots === 0) return 0n
  const value = notionalOf(market, market.markTicks, Math.abs(pos.sizeLots))
  return (pos.sizeLots > 0 ? value : -value) - pos.costBasis
}

/** Initial margin a position uses at its leverage. */
export function positionMargin(market: Market, pos: Position): bigint {
  return pos.sizeLots === 0 ? 0n : marginOf(markNotional(market, pos), pos.leverage)
}

export interface AccountValuation {
  /** balance + sum of uPnL. */
  readonly accountValue: bigint
  /** Initial margin of positions plus margin held by resting orders. */
  readonly totalMarginUsed: bigint
  readonly totalNotional: bigint
  readonly unrealizedPnl: bigint
  /** balance - cross initial margin (positions and orders); excludes uPnL; may be negative. */
  readonly crossCashAvailable: bigint
  /** crossCashAvailable + cross uPnL; the basis for opening or adding. */
  readonly crossTradingAvailable: bigint
  /** max(0, accountValue - totalMarginUsed): a display approximation. */
  readonly withdrawable: bigint
}

/** Values an account at current marks. Bounded by the number of markets it holds positions in. */
export function valueAccount(state: ChainState, account: Account): AccountValuation {
  let upnl = 0n
  let margin = account.reservedMargin
  let notional = 0n
  for (const pos of account.positions.values()) {
    if (pos.sizeLots === 0) continue
    const market = state.markets.get(pos.marketId)
    if (market === undefined) continue
    upnl += unrealizedPnl(market, pos)
    margin += positionMargin(market, pos)
    notional += markNotional(market, pos)
  }
  const accountValue = account.balance + upnl
  const crossCashAvailable = account.balance - margin
  const rest = accountValue - margin
  return {
    accountValue,
    totalMarginUsed: margin,
    totalNotional: notional,
    unrealizedPnl: upnl,
    crossCashAvailable,
    crossTradingAvailable: crossCashAvailable + upnl,
    withdrawable: rest > 0n ? rest : 0n,
  }
}
