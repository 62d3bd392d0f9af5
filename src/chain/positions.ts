// Position accounting. A position keeps a signed size and a signed cost basis; a trade first closes
// against the existing side (realizing PnL pro rata to the cost basis) and opens with the rest.
// Sum over all accounts of (balance - costBasis) is conserved exactly by every trade, whatever the
// rounding of the pro-rata step, because each side moves it by exactly the trade notional.
import { mulDivFloor, mulDivTrunc } from './math.ts'
import { positionKey } from './state-root.ts'
import type { Position } from './types.ts'

export interface TradeResult {
  readonly realizedPnl: bigint
  readonly sizeBefore: number
  readonly sizeAfter: number
}

/** A flat position of owner in a market at a leverage. */
export function newPosition(owner: string, marketId: number, leverage: number): Position {
  return { marketId, sizeLots: 0, costBasis: 0n, leverage, realizedPnl: 0n, leafKey: positionKey(owner, marketId), dirtyIn: -1 }
}

/**
 * Applies a trade of deltaLots (positive buys, negative sells) for notional (SCALE_6, > 0 when
 * deltaLots != 0) to pos, mutating it. Returns the realized PnL to credit to the balance.
 */
export function applyTrade(pos: Position, deltaLots: number, notional: bigint): TradeResult {
  const sizeBefore = pos.sizeLots
  const qty = Math.abs(deltaLots)
  const buying = deltaLots > 0
  let realizedPnl = 0n
  let closeLots = 0
  if (sizeBefore !== 0 && (sizeBefore > 0) !== buying) closeLots = Math.min(qty, Math.abs(sizeBefore))
  let openNotional = notional
  if (closeLots > 0) {
    // The share of the trade notional and of the cost basis that the closing part accounts for.
    const closeNotional = qty === closeLots ? notional : mulDivFloor(notional, closeLots, qty)
    openNotional = notional - closeNotional
    const absBefore = Math.abs(sizeBefore)
    // Toward zero, so the basis left keeps its sign.
    const basisRemoved = closeLots === absBefore ? pos.costBasis : mulDivTrunc(pos.costBasis, closeLots, absBefore)
    // Long closing by selling: receives closeNotional for basis. Short closing by buying: pays it.
    realizedPnl = buying ? -basisRemoved - closeNotional : closeNotional - basisRemoved
    pos.costBasis -= basisRemoved
    pos.sizeLots += buying ? closeLots : -closeLots
  }
  const openLots = qty - closeLots
  if (openLots > 0) {
    pos.sizeLots += buying ? openLots : -openLots
    pos.costBasis += buying ? openNotional : -openNotional
  }
  if (realizedPnl !== 0n) pos.realizedPnl += realizedPnl
  return { realizedPnl, sizeBefore, sizeAfter: pos.sizeLots }
}
