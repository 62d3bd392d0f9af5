// Money movements outside trading, shared by the bridge, transfers and rebates: every balance
// change here is reported as a BalanceChanged event, so fund-flow history is a read of events.
import { parseDecimal } from '../../lib/decimal.ts'
import { insertAccount, newAccount } from '../access/accounts.ts'
import type { EventSink } from '../core/events.ts'
import { type Rejection, reject } from '../core/reasons.ts'
import { type Account, type ChainState, ROLES } from '../core/types.ts'
import { valueAccount } from '../margin/margin.ts'
import { creditAccount } from '../orders/order-ops.ts'
import type { BalanceChangeReason } from './funds-events.ts'

/** Adds a signed amount to an account's balance and reports it. */
export function changeBalance(
  state: ChainState,
  account: Account,
  amount: bigint,
  reason: BalanceChangeReason,
  marketId: number | null,
  events: EventSink,
): void {
  creditAccount(state, account, amount)
  events.push({
    kind: 'Core',
    sub_kind: 'BalanceChanged',
    market_id: marketId,
    account: account.address,
    reason,
    amount,
    balance_after: account.balance,
  })
}

/** The account at address, created with the Trader role when new (deposits and transfers open accounts). */
export function openAccount(state: ChainState, address: string): Account {
  const existing = state.accounts.get(address)
  if (existing !== undefined) return existing
  const account = newAccount(address, 0n, ROLES.Trader)
  insertAccount(state, account)
  return account
}

/**
 * What an account may move out (withdraw or transfer): its cross cash available (balance minus
 * the initial margin of positions and resting orders,
 * docs/liquidation.md#2-where-the-money-sits-and-the-account-figures), and no more than its cross
 * trading available, so an unrealized loss stays covered. Unrealized profit never counts.
 */
export function movableCash(state: ChainState, account: Account): bigint {
  const v = valueAccount(state, account)
  const movable = v.crossCashAvailable < v.crossTradingAvailable ? v.crossCashAvailable : v.crossTradingAvailable
  return movable > 0n ? movable : 0n
}

/** A wire amount (schema-checked: at most 6 decimals) as a positive SCALE_6 bigint, or InvalidAmount. */
export function positiveAmount(raw: string): { readonly ok: true; readonly value: bigint } | Rejection {
  const parsed = parseDecimal(raw, 6)
  if (!parsed.ok) return reject('InvalidAmount', `amount: ${parsed.message}`)
  if (parsed.value <= 0n) return reject('InvalidAmount', 'amount must be greater than 0')
  return { ok: true, value: parsed.value }
}
