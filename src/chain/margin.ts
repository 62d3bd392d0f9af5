// Cross-margin valuation of an account (spec §6.2 account fields). Pure functions over state.
import { absBig, marginOf, marginOfNumber, notionalNumber, notionalOf } from './math.ts'
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
    // One notional per position serves uPnL, margin and total notional (markNotional and friends
    // compute the same values one at a time).
    const size = pos.sizeLots > 0 ? pos.sizeLots : -pos.sizeLots
    const n = market.markTicks === 0 ? -1 : notionalNumber(market, market.markTicks, size)
    if (n >= 0) {
      const value = BigInt(n)
      upnl += (pos.sizeLots > 0 ? value : -value) - pos.costBasis
      margin += marginOfNumber(n, pos.leverage)
      notional += value
    } else {
      upnl += unrealizedPnl(market, pos)
      margin += positionMargin(market, pos)
      notional += markNotional(market, pos)
    }
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

const MAX_SAFE = Number.MAX_SAFE_INTEGER

/** x when it is within the safe-integer range (so exact, see math.ts), else NaN. */
const safe = (x: number): number => (x <= MAX_SAFE && x >= -MAX_SAFE ? x : NaN)
/** A bigint as an exact number, or NaN beyond the safe range (where Number() rounds to >= 2^53). */
const safeNumber = (x: bigint): number => safe(Number(x))

/**
 * Whether crossTradingAvailable(state, account) >= cost: the margin check of an order that opens
 * exposure without filling. It runs for most orders, so it is decided in doubles when every term
 * and partial sum is a safe integer (so exactly: a NaN marks any that is not, and then bigints
 * decide).
 */
export function canAfford(state: ChainState, account: Account, cost: bigint): boolean {
  // balance - reserved - cost + sum over positions of (signed notional - costBasis - margin).
  let sum = safe(safeNumber(account.balance) - safeNumber(account.reservedMargin))
  sum = safe(sum - safeNumber(cost))
  for (const pos of account.positions.values()) {
    const size = pos.sizeLots
    if (size === 0) continue
    const market = state.markets.get(pos.marketId)
    if (market === undefined) continue
    const n = market.markTicks === 0 ? -1 : notionalNumber(market, market.markTicks, size > 0 ? size : -size)
    if (n < 0) return crossTradingAvailable(state, account) >= cost
    const upnl = safe((size > 0 ? n : -n) - safeNumber(pos.costBasis))
    sum = safe(sum + safe(upnl - Math.ceil(n / pos.leverage)))
  }
  // NaN compares false both ways: an unsafe term sends the decision to bigints.
  if (sum >= 0) return true
  if (sum < 0) return false
  return crossTradingAvailable(state, account) >= cost
}

/**
 * valueAccount(state, account).crossTradingAvailable, with fewer bigint operations: per position
 * the notional is computed once, and notionals and margins are summed as numbers while every
 * partial sum is a safe integer (exactly; see math.ts), falling back to valueAccount otherwise.
 */
export function crossTradingAvailable(state: ChainState, account: Account): bigint {
  // balance - reserved - sum(margin) + sum(uPnL), with uPnL = signed notional - costBasis.
  let signedNotional = 0
  let margin = 0
  let basis = 0n
  for (const pos of account.positions.values()) {
    const size = pos.sizeLots
    if (size === 0) continue
    const market = state.markets.get(pos.marketId)
    if (market === undefined) continue
    const n = market.markTicks === 0 ? -1 : notionalNumber(market, market.markTicks, size > 0 ? size : -size)
    if (n < 0) return valueAccount(state, account).crossTradingAvailable
    signedNotional += size > 0 ? n : -n
    margin += Math.ceil(n / pos.leverage)
    if (signedNotional > MAX_SAFE || signedNotional < -MAX_SAFE || margin > MAX_SAFE) return valueAccount(state, account).crossTradingAvailable
    basis += pos.costBasis
  }
  const net = signedNotional - margin
  if (net > MAX_SAFE || net < -MAX_SAFE) return valueAccount(state, account).crossTradingAvailable
  return account.balance - account.reservedMargin + BigInt(net) - basis
}
