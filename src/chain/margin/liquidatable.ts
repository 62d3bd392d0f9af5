// The positions that may be liquidated now (getLiquidatablePositions, the liquidator runner).
// The scan walks state.positionHolders (the accounts holding a position, per market), never every
// account, and stops at the result limit or at LIQUIDATION_SCAN_POSITIONS_MAX positions.

import type { Account, ChainState, Market, Position } from '../core/types.ts'
import { crossHealth, type Health, isHouseAccount, isolatedHealth, liquidationPriceTicks, maintenanceMargin } from './maintenance.ts'

/** Positions one scan examines at most (the result says when it stopped there). */
export const LIQUIDATION_SCAN_POSITIONS_MAX = 200_000

export interface LiquidatableEntry {
  readonly account: Account
  readonly market: Market
  readonly position: Position
  /** The equity and maintenance that decided: the cross part's, or the Isolated position's own. */
  readonly health: Health
  /** The position's own maintenance requirement. */
  readonly maintenance: bigint
  readonly liquidationPriceTicks: bigint | null
}

export interface LiquidatableScan {
  readonly entries: LiquidatableEntry[]
  /** True when the scan stopped at the limit or the scan bound before examining every holder. */
  readonly truncated: boolean
}

/**
 * The liquidatable positions in the given markets (ascending market id, then the order in which
 * accounts opened their positions there), at most `limit`. Markets with mark 0 are skipped.
 */
export function liquidatablePositions(state: ChainState, markets: readonly Market[], limit: number): LiquidatableScan {
  const entries: LiquidatableEntry[] = []
  // A cross part's health is the same for all of an account's Cross positions: computed once.
  const cross = new Map<string, Health>()
  let examined = 0
  for (const market of [...markets].sort((a, b) => a.marketId - b.marketId)) {
    const holders = state.positionHolders.get(market.marketId)
    if (holders === undefined || market.markTicks === 0) continue
    for (const address of holders) {
      if (examined >= LIQUIDATION_SCAN_POSITIONS_MAX || entries.length >= limit) return { entries, truncated: true }
      examined++
      const account = state.accounts.get(address)
      const position = account?.positions.get(market.marketId)
      if (account === undefined || position === undefined || position.sizeLots === 0) continue
      if (isHouseAccount(state, address)) continue
      let health: Health
      if (position.marginMode === 'Isolated') {
        health = isolatedHealth(market, position)
      } else {
        health = cross.get(address) ?? crossHealth(state, account)
        cross.set(address, health)
      }
      if (health.equity >= health.maintenance) continue
      entries.push({
        account,
        market,
        position,
        health,
        maintenance: maintenanceMargin(market, position),
        liquidationPriceTicks: liquidationPriceTicks(state, account, market, position),
      })
    }
  }
  return { entries, truncated: false }
}
