// Position accounting. A position keeps a signed size and a signed cost basis; a trade first closes
// against the existing side (realizing PnL pro rata to the cost basis) and opens with the rest.
// Sum over all accounts of (balance - costBasis) is conserved exactly by every trade, whatever the
// rounding of the pro-rata step, because each side moves it by exactly the trade notional.
//
// An Isolated position also holds margin of its own (isolatedMargin), moved out of the account's
// cross balance: a trade that opens lots locks their initial margin at the fill price and
// leverage into it, and a trade that closes lots releases the same share of it back to the
// balance. applyTrade reports that movement as isolatedTransfer, which the caller credits to the
// balance with the realized PnL, so sum(balance + isolatedMargin - costBasis) is conserved too.
import { marginOf, mulDivFloor, mulDivTrunc } from '../core/math.ts'
import type { Account, ChainState, MarginMode, Market, Position } from '../core/types.ts'
import { markLeaf, positionKey } from '../state/state-root.ts'

export interface TradeResult {
  readonly realizedPnl: bigint
  readonly sizeBefore: number
  readonly sizeAfter: number
  /** SCALE_6 moved from the position's isolated margin to the balance (negative: from the
   * balance into the position); always 0 for a Cross position. */
  readonly isolatedTransfer: bigint
}

/** Default leverage of a market without a setting of the account: 20x or the market's maximum when lower. */
export const defaultLeverage = (market: Market): number => Math.min(20, market.maxLeverage)

/** The leverage and margin mode an account's next position in market opens with. */
export interface PositionSettings {
  readonly leverage: number
  readonly marginMode: MarginMode
}

/** The account's setting for market (UpdateLeverage / UpdateMarginMode), or the default: Cross at defaultLeverage. */
export function positionSettings(account: Account, market: Market): PositionSettings {
  const s = account.settings.get(market.marketId)
  return s === undefined ? { leverage: defaultLeverage(market), marginMode: 'Cross' } : s
}

/** A flat position of owner in a market at a leverage and margin mode. */
export function newPosition(owner: string, marketId: number, leverage: number, marginMode: MarginMode = 'Cross'): Position {
  return {
    marketId,
    sizeLots: 0,
    costBasis: 0n,
    leverage,
    realizedPnl: 0n,
    marginMode,
    isolatedMargin: 0n,
    leafKey: positionKey(owner, marketId),
    dirtyIn: -1,
  }
}

/**
 * Applies a trade of deltaLots (positive buys, negative sells) for notional (SCALE_6, > 0 when
 * deltaLots != 0) to pos, mutating it. Returns the realized PnL and the isolated-margin transfer,
 * both to credit to the balance.
 */
export function applyTrade(pos: Position, deltaLots: number, notional: bigint): TradeResult {
  const sizeBefore = pos.sizeLots
  const qty = Math.abs(deltaLots)
  const buying = deltaLots > 0
  let realizedPnl = 0n
  let isolatedTransfer = 0n
  let closeLots = 0
  if (sizeBefore !== 0 && sizeBefore > 0 !== buying) closeLots = Math.min(qty, Math.abs(sizeBefore))
  let openNotional = notional
  if (closeLots > 0) {
    // The share of the trade notional and of the cost basis that the closing part accounts for.
    const closeNotional = qty === closeLots ? notional : mulDivFloor(notional, closeLots, qty)
    openNotional = qty === closeLots ? 0n : notional - closeNotional
    const absBefore = Math.abs(sizeBefore)
    // Toward zero, so the basis left keeps its sign.
    const basisRemoved = closeLots === absBefore ? pos.costBasis : mulDivTrunc(pos.costBasis, closeLots, absBefore)
    // Long closing by selling: receives closeNotional for basis. Short closing by buying: pays it.
    realizedPnl = buying ? -basisRemoved - closeNotional : closeNotional - basisRemoved
    pos.costBasis -= basisRemoved
    pos.sizeLots += buying ? closeLots : -closeLots
    if (pos.isolatedMargin !== 0n) {
      // The closed share of the isolated margin goes back (toward zero: the rest stays with the
      // lots still open, all of it on a full close), so the margin ratio of what stays open is kept.
      const released = closeLots === absBefore ? pos.isolatedMargin : mulDivTrunc(pos.isolatedMargin, closeLots, absBefore)
      pos.isolatedMargin -= released
      isolatedTransfer += released
    }
  }
  const openLots = qty - closeLots
  if (openLots > 0) {
    pos.sizeLots += buying ? openLots : -openLots
    pos.costBasis = buying ? pos.costBasis + openNotional : pos.costBasis - openNotional
    if (pos.marginMode === 'Isolated') {
      // Initial margin of the opened lots at the fill price, rounded up (against the account).
      const locked = marginOf(openNotional, pos.leverage)
      pos.isolatedMargin += locked
      isolatedTransfer -= locked
    }
  }
  if (realizedPnl !== 0n) pos.realizedPnl += realizedPnl
  return { realizedPnl, sizeBefore, sizeAfter: pos.sizeLots, isolatedTransfer }
}

/**
 * The account's position in market, marked dirty; a missing one is created flat with the
 * account's setting for the market (positionSettings) and indexed in state.positionHolders.
 */
export function positionFor(state: ChainState, account: Account, market: Market): Position {
  let pos = account.positions.get(market.marketId)
  if (pos === undefined) {
    const s = positionSettings(account, market)
    pos = newPosition(account.address, market.marketId, s.leverage, s.marginMode)
    account.positions.set(market.marketId, pos)
    let holders = state.positionHolders.get(market.marketId)
    if (holders === undefined) {
      holders = new Set()
      state.positionHolders.set(market.marketId, holders)
    }
    holders.add(account.address)
  }
  markLeaf(state, pos)
  return pos
}

/** A flat position is removed (its realized PnL and isolated margin are credited to the balance by
 * the caller), leaves the holders index, and is noted for the end-of-block bad-debt sweep. */
export function settlePosition(state: ChainState, account: Account, pos: Position): void {
  if (pos.sizeLots !== 0) return
  account.positions.delete(pos.marketId)
  state.positionHolders.get(pos.marketId)?.delete(account.address)
  state.flatThisBlock.set(account.address, pos.marketId)
}
