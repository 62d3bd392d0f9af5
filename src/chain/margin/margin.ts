// Valuation of an account (the account figures,
// docs/liquidation.md#2-where-the-money-sits-and-the-account-figures). Pure functions over state.
//
// Where the money sits: `balance` is the account's cross cash. An Isolated position holds its own
// margin (Position.isolatedMargin), moved out of the balance, so
//   account_value           = balance + sum(isolated_margin) + sum(uPnL)        (total equity)
//   cross_cash_available    = balance - cross initial margin - margin held by resting orders
//   cross_trading_available = cross_cash_available + uPnL of Cross positions
//   total_margin_used       = cross initial margin + order margin + sum(isolated_margin)
//   withdrawable            = max(0, account_value - total_margin_used)   (display approximation)
// Without Isolated positions these are exactly the formulas of
// docs/liquidation.md#2-where-the-money-sits-and-the-account-figures (account_value = balance + sum
// of uPnL). Every resting order, Cross or Isolated, holds its margin against the cross cash: an
// Isolated order's margin moves into its position only when it fills. A market with mark 0 counts
// uPnL 0 and its positions' notional at their cost basis.
import { absBig, isSafe, marginOf, marginOfNumber, notionalNumber, notionalOf } from '../core/math.ts'
import type { Account, ChainState, Market, Position } from '../core/types.ts'
import { reservedMarginNumber, reservedMarginOf } from './reserved-margin.ts'

/** Notional of a position at the mark (SCALE_6, unsigned); at mark 0, its cost basis stands in. */
export function markNotional(market: Market, pos: Position): bigint {
  if (market.markTicks === 0) return absBig(pos.costBasis)
  return notionalOf(market, market.markTicks, Math.abs(pos.sizeLots))
}

/** Unrealized PnL at the mark; a market with mark 0 counts 0. */
export function unrealizedPnl(market: Market, pos: Position): bigint {
  if (market.markTicks === 0 || pos.sizeLots === 0) return 0n
  const value = notionalOf(market, market.markTicks, Math.abs(pos.sizeLots))
  return (pos.sizeLots > 0 ? value : -value) - pos.costBasis
}

/** Initial margin of a position at the mark and its leverage (what a Cross position uses). */
export function positionMargin(market: Market, pos: Position): bigint {
  return pos.sizeLots === 0 ? 0n : marginOf(markNotional(market, pos), pos.leverage)
}

/** The margin a position shows as used: its initial margin when Cross, its isolated margin when Isolated. */
export function marginUsed(market: Market, pos: Position): bigint {
  return pos.marginMode === 'Isolated' ? pos.isolatedMargin : positionMargin(market, pos)
}

export interface AccountValuation {
  /** Total equity: balance + isolated margins + uPnL of every position. */
  readonly accountValue: bigint
  /** Cross initial margin of positions, margin held by resting orders, isolated margins. */
  readonly totalMarginUsed: bigint
  readonly totalNotional: bigint
  /** uPnL of every position. */
  readonly unrealizedPnl: bigint
  /** uPnL of the Cross positions only. */
  readonly crossUnrealizedPnl: bigint
  /** Sum of the isolated margins of the Isolated positions. */
  readonly isolatedMargin: bigint
  /** balance - cross initial margin (positions and orders); excludes uPnL; may be negative. */
  readonly crossCashAvailable: bigint
  /** crossCashAvailable + Cross uPnL; the basis for opening or adding Cross positions. */
  readonly crossTradingAvailable: bigint
  /** max(0, accountValue - totalMarginUsed): a display approximation. */
  readonly withdrawable: bigint
}

/** Values an account at current marks. Bounded by the number of markets it holds positions in. */
export function valueAccount(state: ChainState, account: Account): AccountValuation {
  let crossUpnl = 0n
  let isolatedUpnl = 0n
  let isolated = 0n
  let crossMargin = 0n
  let notional = 0n
  for (const pos of account.positions.values()) {
    if (pos.sizeLots === 0) continue
    const market = state.markets.get(pos.marketId)
    if (market === undefined) continue
    if (pos.marginMode === 'Isolated') {
      isolated += pos.isolatedMargin
      isolatedUpnl += unrealizedPnl(market, pos)
      notional += markNotional(market, pos)
      continue
    }
    // One notional per position serves uPnL, margin and total notional (markNotional and friends
    // compute the same values one at a time).
    const size = pos.sizeLots > 0 ? pos.sizeLots : -pos.sizeLots
    const n = market.markTicks === 0 ? -1 : notionalNumber(market, market.markTicks, size)
    if (n >= 0) {
      const value = BigInt(n)
      crossUpnl += (pos.sizeLots > 0 ? value : -value) - pos.costBasis
      crossMargin += marginOfNumber(n, pos.leverage)
      notional += value
    } else {
      crossUpnl += unrealizedPnl(market, pos)
      crossMargin += positionMargin(market, pos)
      notional += markNotional(market, pos)
    }
  }
  const upnl = crossUpnl + isolatedUpnl
  const accountValue = account.balance + isolated + upnl
  const reserved = reservedMarginOf(account)
  const totalMarginUsed = crossMargin + reserved + isolated
  const crossCashAvailable = account.balance - crossMargin - reserved
  const rest = accountValue - totalMarginUsed
  return {
    accountValue,
    totalMarginUsed,
    totalNotional: notional,
    unrealizedPnl: upnl,
    crossUnrealizedPnl: crossUpnl,
    isolatedMargin: isolated,
    crossCashAvailable,
    crossTradingAvailable: crossCashAvailable + crossUpnl,
    withdrawable: rest > 0n ? rest : 0n,
  }
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER

/** x when it is within the safe-integer range (so exact, see math.ts), else NaN. */
const safe = (x: number): number => (isSafe(x) ? x : NaN)
/** A bigint as an exact number, or NaN beyond the safe range (where Number() rounds to >= 2^53). */
const safeNumber = (x: bigint): number => safe(Number(x))

/**
 * Whether crossTradingAvailable(state, account) >= cost: the margin check of a Cross order that
 * opens exposure without filling. It runs for most orders, so it is decided in doubles when every
 * term and partial sum is a safe integer (so exactly: a NaN marks any that is not, and then
 * bigints decide).
 */
export function canAfford(state: ChainState, account: Account, cost: bigint): boolean {
  // balance - reserved - cost + sum over Cross positions of (signed notional - costBasis - margin).
  let sum = safe(safeNumber(account.balance) - reservedMarginNumber(account))
  sum = safe(sum - safeNumber(cost))
  for (const pos of account.positions.values()) {
    const size = pos.sizeLots
    if (size === 0 || pos.marginMode !== 'Cross') continue
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
  // balance - reserved - sum(margin) + sum(uPnL) over Cross positions, with uPnL = signed notional - costBasis.
  let signedNotional = 0
  let margin = 0
  let basis = 0n
  for (const pos of account.positions.values()) {
    const size = pos.sizeLots
    if (size === 0 || pos.marginMode !== 'Cross') continue
    const market = state.markets.get(pos.marketId)
    if (market === undefined) continue
    const n = market.markTicks === 0 ? -1 : notionalNumber(market, market.markTicks, size > 0 ? size : -size)
    if (n < 0) return valueAccount(state, account).crossTradingAvailable
    signedNotional += size > 0 ? n : -n
    margin += Math.ceil(n / pos.leverage)
    if (!isSafe(signedNotional) || margin > MAX_SAFE) return valueAccount(state, account).crossTradingAvailable
    basis += pos.costBasis
  }
  const net = signedNotional - margin
  if (!isSafe(net)) return valueAccount(state, account).crossTradingAvailable
  return account.balance - reservedMarginOf(account) + BigInt(net) - basis
}

/**
 * valueAccount(state, account).crossCashAvailable (balance - cross initial margin - order margin),
 * summing the margins as numbers while they are safe integers, else by valueAccount.
 */
export function crossCashAvailable(state: ChainState, account: Account): bigint {
  let margin = 0
  for (const pos of account.positions.values()) {
    const size = pos.sizeLots
    if (size === 0 || pos.marginMode !== 'Cross') continue
    const market = state.markets.get(pos.marketId)
    if (market === undefined) continue
    const n = market.markTicks === 0 ? -1 : notionalNumber(market, market.markTicks, size > 0 ? size : -size)
    if (n < 0) return valueAccount(state, account).crossCashAvailable
    margin += Math.ceil(n / pos.leverage)
    if (margin > MAX_SAFE) return valueAccount(state, account).crossCashAvailable
  }
  return account.balance - reservedMarginOf(account) - BigInt(margin)
}

/**
 * What the account may move out of its cross part (isolated margin, withdrawals): its cross cash
 * available, capped at its cross trading available when Cross uPnL is negative, so a transfer
 * never leaves the Cross positions short of their initial margin. Never below zero.
 */
export function crossMovable(state: ChainState, account: Account): bigint {
  const cash = crossCashAvailable(state, account)
  const trading = crossTradingAvailable(state, account)
  const m = cash < trading ? cash : trading
  return m > 0n ? m : 0n
}
