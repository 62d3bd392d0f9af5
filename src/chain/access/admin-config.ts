// Admin actions on exchange-wide parameters and on accounts: the rebate ratio, the settlement gate,
// the insurance fund, max_tx_per_block, freezing, and forced cancels. Each emits an Ops event that
// names its signer (getAdminAuditLog reads them).
import type {
  AmendExchangeConfigPayload,
  ForceCancelAccountOrdersPayload,
  SetAccountFrozenPayload,
  SetGlobalRebateRatioPayload,
  SetInsuranceFundPayload,
  SetSettlementPausedPayload,
} from '../../wire/actions.ts'
import { type ActionContext, OK, type Outcome } from '../core/action-context.ts'
import { reject } from '../core/reasons.ts'
import { LIMITS, type Order } from '../core/types.ts'
import { frozenKey } from '../funds/funds-state.ts'
import { cancelRestingOrder } from '../orders/order-ops.ts'
import { markDirty, markLeaf } from '../state/state-root.ts'

/** SetGlobalRebateRatio: the share of invited accounts' fees paid as rebates (0..10000 bps, schema). */
export function setGlobalRebateRatio(ctx: ActionContext, p: SetGlobalRebateRatioPayload): Outcome {
  const params = ctx.state.params
  const old = params.globalRebateRatioBps
  // Nothing can reject: the schema bounds the ratio.
  params.globalRebateRatioBps = p.ratio_bps
  markLeaf(ctx.state, ctx.state.exchangeLeaf)
  ctx.events.push({
    kind: 'Ops',
    sub_kind: 'GlobalRebateRatioChanged',
    market_id: null,
    account: ctx.signer,
    signer: ctx.signer,
    old_ratio_bps: old,
    new_ratio_bps: p.ratio_bps,
  })
  return OK
}

/** SetSettlementPaused: gates SettleWithdrawal only; requests, cancels and refunds go on. */
export function setSettlementPaused(ctx: ActionContext, p: SetSettlementPausedPayload): Outcome {
  const params = ctx.state.params
  const old = params.settlementPaused
  params.settlementPaused = p.paused
  markLeaf(ctx.state, ctx.state.exchangeLeaf)
  ctx.events.push({
    kind: 'Ops',
    sub_kind: 'SettlementPausedChanged',
    market_id: null,
    account: ctx.signer,
    signer: ctx.signer,
    old_paused: old,
    new_paused: p.paused,
  })
  return OK
}

/** SetInsuranceFund: the address need not be an account yet (its first credit opens it), but not an agent key. */
export function setInsuranceFund(ctx: ActionContext, p: SetInsuranceFundPayload): Outcome {
  const { state } = ctx
  const address = p.address.toLowerCase()
  if (state.agents.has(address)) return reject('AddressIsAgent', `${address} is an agent key, not an account`)
  // After this point the insurance fund is set.
  const old = state.params.insuranceFund
  state.params.insuranceFund = address
  markLeaf(state, state.exchangeLeaf)
  ctx.events.push({
    kind: 'Ops',
    sub_kind: 'InsuranceFundChanged',
    market_id: null,
    account: ctx.signer,
    signer: ctx.signer,
    old_address: old,
    new_address: address,
  })
  return OK
}

/** AmendExchangeConfig: max_tx_per_block (1..100000, schema) applies from the next block on. */
export function amendExchangeConfig(ctx: ActionContext, p: AmendExchangeConfigPayload): Outcome {
  const params = ctx.state.params
  const old = params.maxTxPerBlock
  if (p.max_tx_per_block !== undefined) params.maxTxPerBlock = p.max_tx_per_block
  markLeaf(ctx.state, ctx.state.exchangeLeaf)
  ctx.events.push({
    kind: 'Ops',
    sub_kind: 'ExchangeConfigAmended',
    market_id: null,
    account: ctx.signer,
    signer: ctx.signer,
    old_max_tx_per_block: old,
    new_max_tx_per_block: params.maxTxPerBlock,
  })
  return OK
}

/** SetAccountFrozen: a frozen account may only cancel and reduce (place-order.ts) and moves no money out. */
export function setAccountFrozen(ctx: ActionContext, p: SetAccountFrozenPayload): Outcome {
  const { state } = ctx
  const address = p.account.toLowerCase()
  if (!state.accounts.has(address)) return reject('AccountNotFound', `${address} is not an account`)
  // After this point the flag is set.
  if (p.frozen) state.funds.frozen.add(address)
  else state.funds.frozen.delete(address)
  markDirty(state, frozenKey(address))
  ctx.events.push({
    kind: 'Ops',
    sub_kind: 'AccountFrozenChanged',
    market_id: null,
    account: address,
    signer: ctx.signer,
    frozen: p.frozen,
  })
  return OK
}

/** ForceCancelAccountOrders: cancels the account's resting orders (in one market when given), oldest first. */
export function forceCancelAccountOrders(ctx: ActionContext, p: ForceCancelAccountOrdersPayload): Outcome {
  const { state } = ctx
  const address = p.account.toLowerCase()
  const account = state.accounts.get(address)
  if (account === undefined) return reject('AccountNotFound', `${address} is not an account`)
  if (p.market_id !== undefined && !state.markets.has(p.market_id)) return reject('MarketNotFound', `market ${p.market_id} does not exist`)
  // After this point the orders are cancelled. Collected first: cancelling edits account.orders.
  const victims: Order[] = []
  let seen = 0
  for (const o of account.orders.values()) {
    if (++seen > LIMITS.openOrdersPerAccountMax) break
    if (p.market_id === undefined || o.marketId === p.market_id) victims.push(o)
  }
  for (const o of victims) cancelRestingOrder(state, account, o, 'ForceCancelled', ctx.events)
  ctx.events.push({
    kind: 'Ops',
    sub_kind: 'AccountOrdersForceCancelled',
    market_id: p.market_id ?? null,
    account: address,
    signer: ctx.signer,
    cancelled: victims.length,
  })
  return OK
}
