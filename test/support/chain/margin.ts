// Helpers for the margin area's tests: a genesis with small accounts (so marks can push them under
// water), action builders, moving a mark with a trade between two bystanders, and the invariants
// of margin modes and liquidation. Test-only: nothing in the node imports this module.

import type { ChainState, MarginMode } from '../../../src/chain/core/types.ts'
import { createGenesisState } from '../../../src/chain/index.ts'
import { hasCrossPosition } from '../../../src/chain/margin/bad-debt.ts'
import { crossCashAvailable, valueAccount } from '../../../src/chain/margin/margin.ts'
import { formatDecimal, parseDecimal } from '../../../src/lib/decimal.ts'
import { DEV_ADDRESSES, devGenesis } from '../../../src/node/dev-genesis.ts'
import type { Genesis } from '../../../src/wire/genesis.ts'
import { type Action, CAROL, cancelByCloid, DAVE, place, TestChain } from './test-chain.ts'

/** Dev account #9: Trader and Liquidator. */
export const LIQ: string = DEV_ADDRESSES[9]
/** Small accounts (Trader role) of the margin genesis, 10,000 USD each. */
export const EVE = '0x00000000000000000000000000000000000e0e01'
export const FRED = '0x00000000000000000000000000000000000e0e02'
export const GINA = '0x00000000000000000000000000000000000e0e03'
export const SMALL_BALANCE = 10_000_000_000n

/** The dev genesis plus three small accounts; the insurance fund is the dev admin (#0). */
export function marginGenesis(extra: Genesis['accounts'] = []): Genesis {
  const g = devGenesis()
  return {
    ...g,
    accounts: [...g.accounts, ...[EVE, FRED, GINA].map((address) => ({ address, balance: '10000', roles: ['Trader'] })), ...extra],
  }
}

/** A TestChain on marginGenesis(). */
export function marginChain(extra: Genesis['accounts'] = []): TestChain {
  return new TestChain(createGenesisState(marginGenesis(extra)).state)
}

export const updateLeverage = (marketId: number, leverage: number): Action => ({ UpdateLeverage: { market_id: marketId, leverage } })
export const updateMarginMode = (marketId: number, mode: MarginMode): Action => ({ UpdateMarginMode: { market_id: marketId, mode } })
export const updateIsolatedMargin = (marketId: number, amount: string, direction: 'Add' | 'Remove'): Action => ({
  UpdateIsolatedMargin: { market_id: marketId, amount, direction },
})
export const liquidate = (address: string, marketId: number): Action => ({ LiquidatePosition: { address, market_id: marketId } })

/**
 * Moves a native market's mark to `price` (the mark is the median of best bid, best ask and the
 * last trade): in one block CAROL rests an ask at `price` and DAVE takes it, then CAROL bids one
 * tick below and DAVE asks one tick above, so the book straddles the trade; the next block
 * cancels those two (a block without trades leaves the mark alone). The book must hold no bid at
 * or above `price` and no ask at or below it. `qty` is the market's minimum size.
 */
export function moveMark(chain: TestChain, marketId: number, price: string, qty: string): void {
  const market = chain.state.markets.get(marketId)!
  const ticks = parseDecimal(price, market.priceDecimals)
  if (!ticks.ok) throw new Error(`moveMark: ${ticks.message}`)
  const at = (t: bigint) => formatDecimal(t, market.priceDecimals)
  const r = chain.block([
    { by: CAROL, action: place(marketId, 'Ask', price, qty) },
    { by: DAVE, action: place(marketId, 'Bid', price, qty, { tif: 'Ioc' }) },
    { by: CAROL, action: place(marketId, 'Bid', at(ticks.value - 1n), qty, { cloid: 'mark-bid' }) },
    { by: DAVE, action: place(marketId, 'Ask', at(ticks.value + 1n), qty, { cloid: 'mark-ask' }) },
  ])
  for (const e of r.envelopes) if (e.status !== 'accepted') throw new Error(`moveMark: ${e.reason?.code} ${e.reason?.message}`)
  if (BigInt(market.markTicks) !== ticks.value) throw new Error(`moveMark: mark is ${market.markTicks} ticks, wanted ${price}`)
  const c = chain.block([
    { by: CAROL, action: cancelByCloid(marketId, 'mark-bid') },
    { by: DAVE, action: cancelByCloid(marketId, 'mark-ask') },
  ])
  for (const e of c.envelopes) if (e.status !== 'accepted') throw new Error(`moveMark cancel: ${e.reason?.code} ${e.reason?.message}`)
}

/** Sum over accounts of balance + isolated margins - cost bases: conserved by every action. */
export function conservedWithIsolated(state: ChainState): bigint {
  let sum = 0n
  for (const a of state.accounts.values()) {
    sum += a.balance
    for (const p of a.positions.values()) sum += p.isolatedMargin - p.costBasis
  }
  return sum
}

/**
 * The margin area's invariants; throws with the first violation: isolated margin only on Isolated
 * positions and never negative; a position agrees with its account's setting; settings within the
 * market's leverage; the holders index equals the positions; the fast cross cash equals the full
 * valuation's; no account but the insurance fund ends a block with a negative balance and no
 * Cross position (bad debt is never hidden).
 */
export function checkMarginInvariants(state: ChainState): void {
  function fail(what: string): never {
    throw new Error(`margin invariant broken at height ${state.height}: ${what}`)
  }
  let held = 0
  for (const a of state.accounts.values()) {
    for (const [mid, p] of a.positions) {
      held++
      if (p.marginMode === 'Cross' && p.isolatedMargin !== 0n)
        fail(`${a.address} Cross position ${mid} holds isolated margin ${p.isolatedMargin}`)
      if (p.isolatedMargin < 0n) fail(`${a.address} position ${mid} isolated margin ${p.isolatedMargin} < 0`)
      const s = a.settings.get(mid)
      if (s !== undefined && (s.leverage !== p.leverage || s.marginMode !== p.marginMode))
        fail(`${a.address} position ${mid} differs from its setting`)
      if (s === undefined && p.marginMode !== 'Cross') fail(`${a.address} Isolated position ${mid} without a setting`)
      if (!state.positionHolders.get(mid)?.has(a.address)) fail(`${a.address} position ${mid} is not indexed`)
    }
    for (const [mid, s] of a.settings) {
      const m = state.markets.get(mid)
      if (m === undefined || s.leverage < 1 || s.leverage > m.maxLeverage) fail(`${a.address} setting ${mid} leverage ${s.leverage}`)
    }
    if (crossCashAvailable(state, a) !== valueAccount(state, a).crossCashAvailable) fail(`${a.address} fast cross cash differs`)
    if (a.balance < 0n && a.address !== state.params.insuranceFund && !hasCrossPosition(a))
      fail(`${a.address} hides a negative balance ${a.balance}`)
  }
  let indexed = 0
  for (const [mid, holders] of state.positionHolders) {
    for (const addr of holders) {
      indexed++
      if (state.accounts.get(addr)?.positions.get(mid) === undefined) fail(`holder ${addr} of ${mid} has no position`)
    }
  }
  if (indexed !== held) fail(`${indexed} holders indexed, ${held} positions held`)
  if (state.flatThisBlock.size !== 0) fail('the bad-debt sweep left accounts behind')
}
