// Bad debt: a negative cross balance that nothing backs any more. While an account holds a Cross
// position, a negative balance is backed by that position's uPnL (and is visible and liquidatable).
// Once it holds none, the deficit is covered by what the account still owns, then by the fund:
// 1. its Isolated positions' margin, taken back in the order the positions were opened (an
//    Isolated position left short of margin is then liquidated like any other);
// 2. the rest is bad debt: the insurance fund pays it into the balance, which ends at 0, and the
//    fund's balance falls by it (it may go negative).
// Liquidations settle it themselves (liquidation.ts); the end-of-block sweep catches every other
// way a last Cross position can go flat (a maker order of a bankrupt account filling, a trigger),
// so no account is left with a hidden negative balance. See docs/liquidation.md.
import type { BlockHook } from '../core/action-context.ts'
import type { EventSink } from '../core/events.ts'
import type { Account, ChainState } from '../core/types.ts'
import { credit, creditAccount } from '../orders/order-ops.ts'
import { markLeaf } from '../state/state-root.ts'
import { isHouseAccount } from './maintenance.ts'

/**
 * Covers the account's negative balance when it holds no Cross position (house accounts
 * excepted): from its isolated margins first, then from the insurance fund. Emits an
 * IsolatedMarginUpdated (cause CrossDeficit) per position drawn on and a BadDebt for the fund's
 * share; `marketId` names the market whose position went flat. Returns the fund's share (0 when none).
 */
export function absorbBadDebt(state: ChainState, account: Account, marketId: number, events: EventSink): bigint {
  if (account.balance >= 0n || isHouseAccount(state, account.address) || hasCrossPosition(account)) return 0n
  // Bounded by the account's positions.
  for (const pos of account.positions.values()) {
    if (account.balance >= 0n) break
    if (pos.isolatedMargin === 0n) continue
    const deficit = -account.balance
    const take = pos.isolatedMargin < deficit ? pos.isolatedMargin : deficit
    pos.isolatedMargin -= take
    creditAccount(state, account, take)
    markLeaf(state, pos)
    events.push({
      kind: 'Core',
      sub_kind: 'IsolatedMarginUpdated',
      market_id: pos.marketId,
      account: account.address,
      direction: 'Remove',
      amount: take,
      cause: 'CrossDeficit',
      isolated_margin: pos.isolatedMargin,
      balance: account.balance,
    })
  }
  if (account.balance >= 0n) return 0n
  const amount = -account.balance
  creditAccount(state, account, amount)
  credit(state, state.params.insuranceFund, -amount)
  events.push({
    kind: 'Liquidation',
    sub_kind: 'BadDebt',
    market_id: marketId,
    account: account.address,
    insurance_fund: state.params.insuranceFund,
    amount,
  })
  return amount
}

/** Whether the account holds an open Cross position; bounded by its positions. */
export function hasCrossPosition(account: Account): boolean {
  for (const pos of account.positions.values()) if (pos.sizeLots !== 0 && pos.marginMode === 'Cross') return true
  return false
}

/** End of block: the deficits of the accounts whose position went flat in the block (bounded by
 * that set, which it clears). */
export const settleBadDebtHook: BlockHook = (ctx) => {
  const state = ctx.state
  for (const [address, marketId] of state.flatThisBlock) {
    const account = state.accounts.get(address)
    if (account !== undefined) absorbBadDebt(state, account, marketId, ctx.events)
  }
  state.flatThisBlock.clear()
}
