// The bridge: deposits credited by the BridgeDeposit role, withdrawals requested by their owner,
// claimed, and settled or refunded by the BridgeWithdraw role.
//
// A withdrawal request debits the balance at once into a pending record (leaf `wd:<id>`): the
// amount then cannot count as available cash, margin or anything else, with no separate "reserved"
// figure to keep in step. Settling removes the record (the money has left the exchange); cancelling
// or refunding credits it back. Money in the exchange = balances + pending withdrawals, and it
// changes only by deposits (up) and settlements (down).
//
// A pending withdrawal is first unclaimed: its owner may cancel it. ClaimWithdrawal moves it to
// processing (the bridge is paying it out): from then on only the bridge ends it, by settling or
// refunding, so an owner can never both be paid and have the amount credited back. Settling and
// refunding still take an unclaimed withdrawal too (bridges that predate the claim).

import { assert } from '../../lib/assert.ts'
import type {
  CancelWithdrawRequestPayload,
  ClaimWithdrawalPayload,
  CreditDepositPayload,
  RefundWithdrawalPayload,
  SettleWithdrawalPayload,
  WithdrawRequestPayload,
} from '../../wire/actions.ts'
import { type ActionContext, OK, type Outcome } from '../core/action-context.ts'
import { reject } from '../core/reasons.ts'
import { type ChainState, LIMITS } from '../core/types.ts'
import { markDirty } from '../state/state-root.ts'
import { changeBalance, movableCash, openAccount, positiveAmount } from './funds-ledger.ts'
import { depositKey, FUNDS_LEAF, isFrozen, withdrawalKey } from './funds-state.ts'
import type { PendingWithdrawal } from './funds-types.ts'

/** CreditDeposit: credits an account (opening it with the Trader role) once per deposit_id. */
export function creditDeposit(ctx: ActionContext, p: CreditDepositPayload): Outcome {
  const { state } = ctx
  const address = p.account.toLowerCase()
  if (state.funds.deposits.has(p.deposit_id)) return reject('DuplicateDeposit', `deposit ${p.deposit_id} was already credited`)
  const amount = positiveAmount(p.amount)
  if (!amount.ok) return amount
  if (state.agents.has(address)) return reject('AddressIsAgent', `${address} is an agent key, not an account`)
  // After this point the deposit is credited.
  const account = openAccount(state, address)
  const sourceChain = p.source_chain ?? null
  state.funds.deposits.set(p.deposit_id, { account: address, amount: amount.value, sourceChain, height: ctx.height })
  markDirty(state, depositKey(p.deposit_id))
  ctx.events.push({
    kind: 'Bridge',
    sub_kind: 'DepositCredited',
    market_id: null,
    account: address,
    amount: amount.value,
    deposit_id: p.deposit_id,
    source_chain: sourceChain,
    signer: ctx.signer,
  })
  changeBalance(state, account, amount.value, 'Deposit', null, ctx.events)
  return OK
}

/** WithdrawRequest: debits the amount into a pending withdrawal for the bridge. */
export function withdrawRequest(ctx: ActionContext, p: WithdrawRequestPayload): Outcome {
  const { state, account } = ctx
  const amount = positiveAmount(p.amount)
  if (!amount.ok) return amount
  if (isFrozen(state, account.address)) return reject('AccountFrozen', `${account.address} is frozen`)
  const pending = state.funds.withdrawalsByAccount.get(account.address)
  if (pending !== undefined && pending.length >= LIMITS.pendingWithdrawalsPerAccountMax) {
    return reject('TooManyPendingWithdrawals', `at most ${LIMITS.pendingWithdrawalsPerAccountMax} pending withdrawals per account`)
  }
  const movable = movableCash(state, account)
  if (amount.value > movable)
    return reject('InsufficientFunds', `amount ${p.amount} exceeds the ${movable} SCALE_6 the account may withdraw`)
  // After this point the request is recorded.
  const id = state.funds.nextWithdrawalId++
  markDirty(state, FUNDS_LEAF)
  const w: PendingWithdrawal = {
    id,
    account: account.address,
    destination: p.destination.toLowerCase(),
    amount: amount.value,
    requestedHeight: ctx.height,
    requestedAtMs: ctx.timestampMs,
  }
  state.funds.withdrawals.set(id, w)
  if (pending === undefined) state.funds.withdrawalsByAccount.set(account.address, [id])
  else pending.push(id)
  markDirty(state, withdrawalKey(id))
  ctx.events.push({
    kind: 'Bridge',
    sub_kind: 'WithdrawalRequested',
    market_id: null,
    account: account.address,
    withdrawal_id: id,
    destination: w.destination,
    amount: w.amount,
  })
  changeBalance(state, account, -w.amount, 'WithdrawRequested', null, ctx.events)
  return OK
}

/** CancelWithdrawRequest: the owner takes a pending withdrawal back, unless the bridge has claimed it. */
export function cancelWithdrawRequest(ctx: ActionContext, p: CancelWithdrawRequestPayload): Outcome {
  const { state, account } = ctx
  const w = state.funds.withdrawals.get(p.withdrawal_id)
  if (w === undefined || w.account !== account.address)
    return reject('WithdrawalNotFound', `withdrawal ${p.withdrawal_id} is not a pending withdrawal of ${account.address}`)
  if (w.claimedBy !== undefined) {
    return reject(
      'WithdrawalProcessing',
      `withdrawal ${w.id} is being paid out (claimed at height ${w.claimedHeight}); only the bridge can end it now`,
    )
  }
  // After this point the withdrawal is cancelled.
  removeWithdrawal(state, w)
  ctx.events.push({
    kind: 'Bridge',
    sub_kind: 'WithdrawalCancelled',
    market_id: null,
    account: w.account,
    withdrawal_id: w.id,
    amount: w.amount,
  })
  changeBalance(state, account, w.amount, 'WithdrawCancelled', null, ctx.events)
  return OK
}

/** ClaimWithdrawal: the bridge takes a pending withdrawal on (pending -> processing); refused while settlement is paused. */
export function claimWithdrawal(ctx: ActionContext, p: ClaimWithdrawalPayload): Outcome {
  const { state } = ctx
  if (state.params.settlementPaused) return reject('SettlementPaused', 'bridge settlement is paused')
  const w = state.funds.withdrawals.get(p.withdrawal_id)
  if (w === undefined) return reject('WithdrawalNotFound', `withdrawal ${p.withdrawal_id} is not pending`)
  if (w.claimedBy !== undefined)
    return reject('WithdrawalProcessing', `withdrawal ${w.id} was already claimed by ${w.claimedBy} at height ${w.claimedHeight}`)
  // After this point the withdrawal is processing. The record is replaced, not changed in place (its fields are readonly).
  state.funds.withdrawals.set(w.id, { ...w, claimedBy: ctx.signer, claimedHeight: ctx.height })
  markDirty(state, withdrawalKey(w.id))
  ctx.events.push({
    kind: 'Bridge',
    sub_kind: 'WithdrawalClaimed',
    market_id: null,
    account: w.account,
    withdrawal_id: w.id,
    destination: w.destination,
    amount: w.amount,
    signer: ctx.signer,
  })
  return OK
}

/** SettleWithdrawal: the bridge paid the withdrawal out (processing, or still unclaimed); refused while settlement is paused. */
export function settleWithdrawal(ctx: ActionContext, p: SettleWithdrawalPayload): Outcome {
  const { state } = ctx
  if (state.params.settlementPaused) return reject('SettlementPaused', 'bridge settlement is paused')
  const w = state.funds.withdrawals.get(p.withdrawal_id)
  if (w === undefined) return reject('WithdrawalNotFound', `withdrawal ${p.withdrawal_id} is not pending`)
  // After this point the withdrawal is settled: its amount, debited at request, leaves the exchange.
  removeWithdrawal(state, w)
  ctx.events.push({
    kind: 'Bridge',
    sub_kind: 'WithdrawalSettled',
    market_id: null,
    account: w.account,
    withdrawal_id: w.id,
    destination: w.destination,
    amount: w.amount,
    external_tx: p.external_tx ?? null,
    signer: ctx.signer,
  })
  return OK
}

/** RefundWithdrawal: the bridge could not pay out (processing, or still unclaimed); the amount returns to the account. */
export function refundWithdrawal(ctx: ActionContext, p: RefundWithdrawalPayload): Outcome {
  const { state } = ctx
  const w = state.funds.withdrawals.get(p.withdrawal_id)
  if (w === undefined) return reject('WithdrawalNotFound', `withdrawal ${p.withdrawal_id} is not pending`)
  // After this point the withdrawal is refunded.
  removeWithdrawal(state, w)
  const account = state.accounts.get(w.account)
  assert(account !== undefined, `withdrawal ${w.id} of a missing account ${w.account}`)
  ctx.events.push({
    kind: 'Bridge',
    sub_kind: 'WithdrawalRefunded',
    market_id: null,
    account: w.account,
    withdrawal_id: w.id,
    amount: w.amount,
    reason: p.reason ?? null,
    signer: ctx.signer,
  })
  changeBalance(state, account, w.amount, 'WithdrawRefunded', null, ctx.events)
  return OK
}

/** Pending withdrawals of an account, oldest first (bounded by pendingWithdrawalsPerAccountMax). */
export function pendingWithdrawalsOf(state: ChainState, address: string): PendingWithdrawal[] {
  const ids = state.funds.withdrawalsByAccount.get(address) ?? []
  return ids.map((id) => state.funds.withdrawals.get(id)!)
}

function removeWithdrawal(state: ChainState, w: PendingWithdrawal): void {
  state.funds.withdrawals.delete(w.id)
  const ids = state.funds.withdrawalsByAccount.get(w.account)!
  ids.splice(ids.indexOf(w.id), 1)
  if (ids.length === 0) state.funds.withdrawalsByAccount.delete(w.account)
  markDirty(state, withdrawalKey(w.id))
}
